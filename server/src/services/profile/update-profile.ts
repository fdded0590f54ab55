import type { TDb } from '../../db/client.js';
import { patientProfiles } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { rowsToCustomFields, type TProfileValues } from '@contracts/schemas/profile.js';
import { auditedAccess } from '../audit/audited-access.js';
import { ownedRow } from '../data-access/find-owned.js';
import { PROFILE_NOT_FOUND } from './get-owned-profile.js';
import { profileColumns, type TProfileRow } from './profile-view.js';

/**
 * Replaces a profile's name, age and custom fields (the form always sends all of them). The
 * owner check is in the UPDATE's own WHERE, so there is no window between check and write.
 * Chats keep the patient snapshot they were started with.
 */
export async function updateProfile(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  profileId: string;
  values: TProfileValues;
}): Promise<TProfileRow> {
  const { db, userId, profileId, values } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'profile.update',
    objectType: 'patient_profile',
    objectId: profileId,
    work: async () => {
      const [row] = await db
        .update(patientProfiles)
        .set({
          fullName: values.patientName,
          age: values.age,
          customFields: rowsToCustomFields(values.additionalFields),
          updatedAt: new Date(),
        })
        .where(ownedRow(patientProfiles, profileId, userId, PROFILE_NOT_FOUND))
        .returning(profileColumns);
      if (!row) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
      return row;
    },
  });
}
