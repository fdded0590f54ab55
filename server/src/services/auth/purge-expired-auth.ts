import { isNotNull, lt, or } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { passwordResetTokens, sessions } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { runHourly } from '../../lib/run-hourly.js';

/**
 * Deletes sessions and reset links that can never be used again. They hold an IP address and a
 * user agent, which we keep no longer than they serve a purpose; the audit log keeps the history.
 */
export async function purgeExpiredAuth(opts: {
  db: TDb;
  idleHours: number;
  now?: Date;
}): Promise<{ sessions: number; resetTokens: number }> {
  const { db, idleHours, now = new Date() } = opts;
  const idleCutoff = new Date(now.getTime() - idleHours * 3600_000);
  const goneSessions = await db
    .delete(sessions)
    .where(or(isNotNull(sessions.revokedAt), lt(sessions.expiresAt, now), lt(sessions.lastUsedAt, idleCutoff)))
    .returning({ id: sessions.id });
  const goneTokens = await db
    .delete(passwordResetTokens)
    .where(or(isNotNull(passwordResetTokens.usedAt), lt(passwordResetTokens.expiresAt, now)))
    .returning({ id: passwordResetTokens.id });
  return { sessions: goneSessions.length, resetTokens: goneTokens.length };
}

/** Runs the purge hourly (and once shortly after start) in the server process. */
export function startAuthSweeper(deps: Pick<AppDeps, 'db' | 'config' | 'log'>): { close(): Promise<void> } {
  return runHourly(() => {
    purgeExpiredAuth({ db: deps.db, idleHours: deps.config.SESSION_IDLE_HOURS })
      .then((n) => {
        if (n.sessions || n.resetTokens) deps.log.info(n, 'purged expired sessions and reset links');
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'could not purge expired sessions'));
  });
}
