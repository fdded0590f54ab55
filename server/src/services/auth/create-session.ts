import type { TDb } from '../../db/client.js';
import { sessions } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { SESSION_LIFETIME_MS } from './session-cookie.js';

/**
 * A fresh session for every login or signup (never one the client proposes, so a planted cookie
 * cannot be fixed onto a victim's login). The token has 256 random bits; only its hash is stored.
 */
export async function createSession(opts: { db: TDb; userId: string; meta: RequestMeta }): Promise<string> {
  const { db, userId, meta } = opts;
  const token = newToken();
  const now = new Date();
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    createdAt: now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return token;
}
