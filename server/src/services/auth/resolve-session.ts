import { and, eq, gt, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import { hashToken } from '../../lib/tokens.js';

export interface TAuth {
  userId: string;
  name: string;
  email: string;
  /** The session row, or null when the caller used a personal API key. */
  sessionId: string | null;
  via: 'session' | 'api-key';
}

// Writing last_used_at on every request would turn reads into writes; a minute is precise enough
// for a 12-hour idle timeout.
const TOUCH_EVERY_MS = 60_000;

/** The signed-in user for a session token, or null if it is unknown, revoked, expired or idle. */
export async function resolveSession(db: TDb, token: string, idleHours: number): Promise<TAuth | null> {
  if (!token || token.length > 200) return null;
  const now = new Date();
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastUsedAt: sessions.lastUsedAt,
      userId: users.id,
      name: users.name,
      email: users.email,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  if (now.getTime() - row.lastUsedAt.getTime() > idleHours * 3600_000) return null;
  if (now.getTime() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, row.sessionId));
  }
  return { userId: row.userId, name: row.name, email: row.email, sessionId: row.sessionId, via: 'session' };
}
