import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { patientProfiles } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { auditedAccess } from '../history/audited-access.js';
import { isUuid } from '../history/keyset-cursor.js';
import { PROFILE_NOT_FOUND } from './get-owned-profile.js';

/**
 * Deletes one of userId's profiles. Its chats stay (profile_id becomes null through the foreign
 * key) with the patient snapshot they were created with.
 */
export async function deleteProfile(opts: { db: TDb; meta: RequestMeta | null; userId: string; profileId: string }): Promise<void> {
  const { db, userId, profileId } = opts;
  await auditedAccess({ db, meta: opts.meta, userId }, { action: 'profile.delete', objectType: 'patient_profile', objectId: profileId }, async () => {
    if (!isUuid(profileId)) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
    const deleted = await db
      .delete(patientProfiles)
      .where(and(eq(patientProfiles.id, profileId), eq(patientProfiles.userId, userId)))
      .returning({ id: patientProfiles.id });
    if (deleted.length === 0) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
  });
}
