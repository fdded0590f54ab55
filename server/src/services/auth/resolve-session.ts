import { and, eq, gt, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import { hashToken } from '../../lib/tokens.js';
import type { TSessionCache, TSessionRow } from './session-cache.js';

export interface TAuth {
  userId: string;
  name: string;
  email: string;
  /** The session row, or null when the caller used a personal API key. */
  sessionId: string | null;
  via: 'session' | 'api-key';
  /** The account holds the site-admin role (users.site_admin_since); absent means no. */
  siteAdmin?: boolean;
  /** The team of the API key used (a team key, issue 32); absent or null otherwise. */
  keyTeamId?: string | null;
}

// Writing last_used_at on every request would turn reads into writes; a minute is precise enough
// for a 12-hour idle timeout.
const TOUCH_EVERY_MS = 60_000;

async function loadSession(opts: { db: TDb; tokenHash: string }): Promise<TSessionRow | null> {
  const { db, tokenHash } = opts;
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      name: users.name,
      email: users.email,
      siteAdminSince: users.siteAdminSince,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row) return null;
  const { siteAdminSince, ...rest } = row;
  return { ...rest, siteAdmin: siteAdminSince !== null };
}

/**
 * The signed-in user for a session token, or null if it is unknown, revoked, expired or idle.
 * With a cache (the HTTP app's), a session seen in the last few seconds is not read again; the
 * cache is emptied of a session as soon as any process announces its end.
 */
export async function resolveSession(opts: {
  db: TDb;
  token: string;
  idleHours: number;
  cache?: TSessionCache | null;
}): Promise<TAuth | null> {
  const { db, token, idleHours, cache = null } = opts;
  if (!token || token.length > 200) return null;
  const tokenHash = hashToken(token);
  const load = () => loadSession({ db, tokenHash });
  const row = cache ? await cache.lookup(tokenHash, load) : await load();
  const now = new Date();
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  if (now.getTime() - row.lastUsedAt.getTime() > idleHours * 3600_000) return null;
  if (now.getTime() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, row.sessionId));
    // The cached copy is this object: later hits see the touch and do not repeat it.
    row.lastUsedAt = now;
  }
  return {
    userId: row.userId,
    name: row.name,
    email: row.email,
    sessionId: row.sessionId,
    via: 'session',
    siteAdmin: row.siteAdmin,
  };
}
