import { patientProfiles } from '../../db/schema.js';
import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';

import { recordAudit } from '../audit/record-audit.js';
import { spaceRows } from '../data-access/find-owned.js';

/**
 * Deletes every patient profile of the user. Chats made from a profile stay (they carry their
 * own patient snapshot; the foreign key sets their profile_id to null). Profiles have no image
 * files of their own, so there is nothing to remove from storage.
 */
export async function clearProfiles(opts: {
  db: TDb;
  meta: RequestMeta;
  userId: string;
}): Promise<{ profiles: number }> {
  const { meta, userId } = opts;
  return opts.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(patientProfiles)
      .where(spaceRows(patientProfiles, userId, null))
      .returning({ id: patientProfiles.id });
    await recordAudit({
      db: tx,
      meta,
      entry: {
        actorUserId: userId,
        action: 'settings.clear_profiles',
        objectType: 'user',
        objectId: userId,
        outcome: 'success',
        details: { profiles: deleted.length },
      },
    });
    return { profiles: deleted.length };
  });
}
