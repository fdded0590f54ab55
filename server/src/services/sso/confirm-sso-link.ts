import { eq } from 'drizzle-orm';
import { sessions, userIdentities } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken } from '../../lib/tokens.js';
import { SSO_MESSAGES } from '@contracts/schemas/sso.js';
import { logIn } from '../auth/log-in.js';
import { syncSsoMemberships } from '../teams/sync-sso-memberships.js';
import { openSsoSession } from './open-sso-session.js';
import { readSsoStep, type TPendingLink } from './sso-store.js';

type TLinkDeps = Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'>;

/**
 * The one-time password confirmation: the password is checked by logIn (same rate limits, same
 * audit of failures), then the identity is linked and the person is signed in by SSO. The
 * pending link survives a wrong password (until it expires) and is spent by a right one.
 */
export async function confirmSsoLink(
  opts: TLinkDeps & { meta: RequestMeta; linkId: string | undefined; password: string },
): Promise<{ token: string }> {
  const { db, meta } = opts;
  const deps: TLinkDeps = opts;
  const read = (take: boolean) =>
    opts.linkId ? readSsoStep<TPendingLink>({ ...deps, kind: 'link', id: opts.linkId, take }) : null;
  const pending = await read(false);
  if (!pending) throw new AppError('BAD_REQUEST', SSO_MESSAGES.link_expired);
  const passwordSession = await logIn({
    ...deps,
    meta,
    input: { email: pending.email, password: opts.password },
    linkingSso: true,
  });
  // logIn opened a password session; the SSO one below replaces it, so end this one at once.
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(eq(sessions.tokenHash, hashToken(passwordSession.token)));
  if (!(await read(true))) throw new AppError('BAD_REQUEST', SSO_MESSAGES.link_expired);
  const [identity] = await db
    .insert(userIdentities)
    .values({ userId: pending.userId, issuer: pending.issuer, subject: pending.subject })
    .onConflictDoNothing()
    .returning({ id: userIdentities.id });
  if (!identity) throw new AppError('CONFLICT', SSO_MESSAGES.link_other_account);
  await syncSsoMemberships({
    ...deps,
    meta,
    userId: pending.userId,
    mapped: pending.teams,
    strict: opts.config.OIDC_ROLE_STRICT,
  });
  const token = await openSsoSession({
    db,
    meta,
    userId: pending.userId,
    identityId: identity.id,
    sid: pending.sid,
    idToken: pending.idToken,
    action: 'auth.sso_link',
  });
  return { token };
}
