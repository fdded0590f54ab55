import type { TDb } from '../../db/client.js';
import { patientProfiles } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { auditedAccess } from '../audit/audited-access.js';
import { ownedRow } from '../data-access/find-owned.js';
import { PROFILE_NOT_FOUND } from './get-owned-profile.js';

/**
 * Deletes one of userId's profiles. Its chats stay (profile_id becomes null through the foreign
 * key) with the patient snapshot they were created with.
 */
export async function deleteProfile(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  profileId: string;
}): Promise<void> {
  const { db, userId, profileId } = opts;
  await auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'profile.delete',
    objectType: 'patient_profile',
    objectId: profileId,
    work: async () => {
      const deleted = await db
        .delete(patientProfiles)
        .where(ownedRow(patientProfiles, profileId, userId, PROFILE_NOT_FOUND))
        .returning({ id: patientProfiles.id, teamId: patientProfiles.teamId });
      if (!deleted[0]) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
      return deleted[0];
    },
    // The profile is gone when the entry is written: its team is named here (services/audit/audit-team.ts).
    detailsOf: (out) => ({ teamId: out.teamId }),
  });
}
