import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import { auditedAccess } from '../audit/audited-access.js';
import { getOwnedProfile } from './get-owned-profile.js';
import type { TProfileRow } from './profile-view.js';

/** One profile for its owner, audited as a read (getOwnedProfile is the unaudited check). */
export function getProfile(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  profileId: string;
}): Promise<TProfileRow> {
  const { db, userId, profileId } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'profile.read',
    objectType: 'patient_profile',
    objectId: profileId,
    work: () => getOwnedProfile({ db, userId, profileId }),
  });
}
