import { eq } from 'drizzle-orm';
import { oidcSessions, sessions, userIdentities } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { hashToken } from '../../lib/tokens.js';
import { auditAccount } from '../auth/audit-auth.js';
import { createSession } from '../auth/create-session.js';

/**
 * Opens an app session for an IdP identity and remembers the IdP session behind it (its `sid`
 * for back-channel logout, the ID token for RP-initiated logout). Every SSO login is audited.
 */
export async function openSsoSession(
  opts: Pick<AppDeps, 'db'> & {
    meta: RequestMeta;
    userId: string;
    identityId: string;
    sid: string | null;
    idToken: string;
    action?: 'auth.sso_login' | 'auth.sso_link';
  },
): Promise<string> {
  const { db, meta, userId, identityId } = opts;
  const token = await createSession({ db, userId, meta });
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) throw new Error('session just created is missing');
  await db.insert(oidcSessions).values({ sessionId: row.id, identityId, sid: opts.sid, idToken: opts.idToken });
  await db.update(userIdentities).set({ lastLoginAt: new Date() }).where(eq(userIdentities.id, identityId));
  await auditAccount({
    db,
    meta,
    userId,
    action: opts.action ?? 'auth.sso_login',
    outcome: 'success',
    details: { identityId },
  });
  return token;
}
