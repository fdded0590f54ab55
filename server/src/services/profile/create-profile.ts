import type { TDb } from '../../db/client.js';
import { patientProfiles } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { rowsToCustomFields, type TProfileValues } from '@contracts/schemas/profile.js';
import { auditedAccess } from '../audit/audited-access.js';
import { resolveSpace } from '../data-access/team-role.js';
import { profileColumns, type TProfileRow } from './profile-view.js';

/**
 * Stores a new profile for userId, in their personal space or a team they belong to. Ownership
 * comes from the session only, never the body.
 */
export async function createProfile(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  teamId?: string | null;
  values: TProfileValues;
}): Promise<TProfileRow> {
  const { db, userId, values } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'profile.create',
    objectType: 'patient_profile',
    work: async () => {
      const teamId = await resolveSpace({ db, userId, teamId: opts.teamId });
      const [row] = await db
        .insert(patientProfiles)
        .values({
          userId,
          teamId,
          fullName: values.patientName,
          age: values.age,
          customFields: rowsToCustomFields(values.additionalFields),
        })
        .returning(profileColumns);
      if (!row) throw new Error('insert returned no row');
      return row;
    },
    detailsOf: (row) => ({ profileId: row.id }),
  });
}
