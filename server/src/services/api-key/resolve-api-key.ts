import { and, eq, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { apiKeys, users } from '../../db/schema.js';
import { hashToken } from '../../lib/tokens.js';
import type { TAuth } from '../auth/resolve-session.js';

/** Personal API keys look like `cxr_…`; they are told apart from session tokens by that prefix. */
export const API_KEY_PREFIX = 'cxr_';

export async function resolveApiKey(opts: { db: TDb; key: string }): Promise<TAuth | null> {
  const { db, key } = opts;
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return null;
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      keyTeamId: apiKeys.teamId,
      userId: users.id,
      name: users.name,
      email: users.email,
      siteAdminSince: users.siteAdminSince,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, hashToken(key)), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) return null;
  await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.keyId));
  return {
    userId: row.userId,
    name: row.name,
    email: row.email,
    sessionId: null,
    via: 'api-key',
    siteAdmin: row.siteAdminSince !== null,
    keyTeamId: row.keyTeamId,
  };
}
