import { eq } from 'drizzle-orm';
import { storedImages, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { SETTINGS_MESSAGES } from '@contracts/schemas/settings.js';
import { recordAudit } from '../audit/record-audit.js';
import type { TAuth } from '../auth/resolve-session.js';
import { announceSessionsEnded } from '../auth/session-cache.js';
import { confirmPassword } from './confirm-password.js';
import { deleteUnreferencedFiles } from '../images/delete-unreferenced-files.js';
import { handOverTeamRows } from '../teams/hand-over-team-rows.js';

const ACTION = 'account.delete';

/**
 * Deletes the account for real: the user row goes, and with it (foreign keys cascade) sessions,
 * reset links, API keys, and the personal space's profiles, chats, messages, analyses and image
 * rows; then the image files. What the account made in a team stays the team's, without an
 * author (teams/hand-over-team-rows.ts; the team's only admin must hand over first, 409). What
 * remains of the account is the audit entry, which holds ids and counts only.
 */
export async function deleteAccount(
  opts: Pick<AppDeps, 'db' | 'redis' | 'config' | 'images' | 'log'> & {
    meta: RequestMeta;
    auth: TAuth;
    password: string;
  },
): Promise<void> {
  const { db, redis, config, images, log, meta } = opts;
  const user = await confirmPassword({
    ...opts,
    action: ACTION,
    wrongMessage: SETTINGS_MESSAGES.wrongPassword,
  });
  const keys = await db.transaction(async (tx) => {
    const handed = await handOverTeamRows({ tx, userId: user.id });
    const images = await tx
      .delete(storedImages)
      .where(eq(storedImages.userId, user.id))
      .returning({ key: storedImages.storageKey });
    await tx.delete(users).where(eq(users.id, user.id));
    // In the same transaction: the deletion and its record commit together or not at all.
    await recordAudit({
      db: tx,
      meta,
      entry: {
        actorUserId: user.id,
        action: ACTION,
        objectType: 'user',
        objectId: user.id,
        outcome: 'success',
        details: { images: images.length, teamRows: handed.rows, teamsDeleted: handed.teamsDeleted },
      },
    });
    return [...images.map((i) => i.key), ...handed.imageKeys];
  });
  await announceSessionsEnded({ redis, config, userId: user.id });
  await deleteUnreferencedFiles({ db, images, log, keys });
}
