import { and, eq, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { apiKeys } from '../../db/schema.js';

/**
 * Revokes every active key of a user, inside the caller's transaction: a password change or
 * reset is how an account is taken back, and a key minted by whoever held it must not outlive
 * that (issue 23 N5). Keys are looked up on each request (resolve-api-key.ts), so nothing is
 * cached to announce. Returns how many keys stopped working.
 */
export async function revokeUserApiKeys(opts: { db: Pick<TDb, 'update'>; userId: string }): Promise<number> {
  const { db, userId } = opts;
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length;
}
