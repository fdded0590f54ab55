import { and, eq, isNull, ne } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { sessions } from '../../db/schema.js';

/** Ends one session on the server: its token answers 401 from now on. */
export async function revokeSession(opts: { db: TDb; sessionId: string }): Promise<void> {
  const { db, sessionId } = opts;
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * Ends every session of a user, optionally keeping the one making the request. Takes a
 * transaction too, so a password change and the sign-outs commit together.
 */
export async function revokeUserSessions(opts: {
  db: Pick<TDb, 'update'>;
  userId: string;
  keepSessionId?: string | null;
}): Promise<number> {
  const { db, userId, keepSessionId } = opts;
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}
