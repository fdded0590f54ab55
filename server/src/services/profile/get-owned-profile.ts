import type { TDb } from '../../db/client.js';
import { patientProfiles } from '../../db/schema.js';
import { findOwned } from '../data-access/find-owned.js';
import { profileColumns, type TProfileRow } from './profile-view.js';

export const PROFILE_NOT_FOUND = 'Profile not found';

/**
 * The profile if it belongs to userId. A missing id, a malformed id and another user's id all
 * throw the same NOT_FOUND, so nobody can learn that someone else's profile exists.
 */
export async function getOwnedProfile(opts: { db: TDb; userId: string; profileId: string }): Promise<TProfileRow> {
  return findOwned({
    db: opts.db,
    table: patientProfiles,
    id: opts.profileId,
    userId: opts.userId,
    columns: profileColumns,
    notFound: PROFILE_NOT_FOUND,
  });
}
