import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { patientProfiles } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { isUuid } from '../history/keyset-cursor.js';
import { profileColumns, type TProfileRow } from './profile-view.js';

export const PROFILE_NOT_FOUND = 'Profile not found';

/**
 * The profile if it belongs to userId. A missing id, a malformed id and another user's id all
 * throw the same NOT_FOUND, so nobody can learn that someone else's profile exists.
 */
export async function getOwnedProfile(db: TDb, userId: string, profileId: string): Promise<TProfileRow> {
  if (!isUuid(profileId)) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
  const [row] = await db
    .select(profileColumns)
    .from(patientProfiles)
    .where(and(eq(patientProfiles.id, profileId), eq(patientProfiles.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
  return row;
}
