import { and, eq, inArray, isNull } from 'drizzle-orm';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { oidcSessions, sessions, userIdentities } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { announceSessionsEnded } from '../auth/session-cache.js';
import { recordAudit } from '../audit/record-audit.js';
import type { RequestMeta } from '../../deps.js';
import { oidcClientFor } from './oidc-client.js';
import { claimLogoutTokenId } from './sso-store.js';

const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const jwksByUri = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

type TLogoutDeps = Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'>;

/** OpenID Connect Back-Channel Logout 1.0, section 2.6: the checks a logout token must pass. */
async function verifyLogoutToken(opts: TLogoutDeps & { logoutToken: string }): Promise<JWTPayload> {
  const { config } = opts;
  const oidc = oidcClientFor(config);
  if (!oidc || !config.OIDC_CLIENT_ID) throw new AppError('NOT_FOUND', 'Single sign-on is not configured');
  const meta = (await oidc.configuration()).serverMetadata();
  if (!meta.jwks_uri) throw new AppError('UNAVAILABLE', 'The identity provider publishes no keys');
  let jwks = jwksByUri.get(meta.jwks_uri);
  if (!jwks) jwksByUri.set(meta.jwks_uri, (jwks = createRemoteJWKSet(new URL(meta.jwks_uri))));
  const bad = (why: string) => new AppError('BAD_REQUEST', `Invalid logout token: ${why}`);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(opts.logoutToken, jwks, {
      issuer: meta.issuer,
      audience: config.OIDC_CLIENT_ID,
      clockTolerance: config.OIDC_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['iat', 'jti', 'events'],
    }));
  } catch (err) {
    opts.log.warn({ err }, 'back-channel logout token refused');
    throw bad('signature or claims');
  }
  const events = payload.events as Record<string, unknown> | undefined;
  if (typeof events !== 'object' || events === null || !(LOGOUT_EVENT in events)) throw bad('no logout event');
  if ('nonce' in payload) throw bad('nonce present');
  if (!payload.sub && typeof payload.sid !== 'string') throw bad('neither sub nor sid');
  if (!(await claimLogoutTokenId({ ...opts, issuer: meta.issuer, jti: String(payload.jti) }))) throw bad('replayed');
  return payload;
}

/**
 * Ends, at once and on every server process, the app sessions behind the IdP session (`sid`) or
 * all SSO sessions of the IdP user (`sub`) named by a valid logout token. Returns how many ended.
 */
export async function backChannelLogout(
  opts: TLogoutDeps & { meta: RequestMeta; logoutToken: string },
): Promise<number> {
  const { db } = opts;
  const payload = await verifyLogoutToken(opts);
  const issuer = String(payload.iss);
  const rows = await db
    .select({ sessionId: oidcSessions.sessionId, userId: userIdentities.userId })
    .from(oidcSessions)
    .innerJoin(userIdentities, eq(userIdentities.id, oidcSessions.identityId))
    .where(
      and(
        eq(userIdentities.issuer, issuer),
        typeof payload.sid === 'string' ? eq(oidcSessions.sid, payload.sid) : undefined,
        payload.sub ? eq(userIdentities.subject, payload.sub) : undefined,
      ),
    );
  const ids = rows.map((r) => r.sessionId);
  const ended = ids.length
    ? await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(inArray(sessions.id, ids), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id })
    : [];
  for (const { id } of ended) await announceSessionsEnded({ ...opts, sessionId: id });
  const userId = rows[0]?.userId ?? null;
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: null,
      action: 'auth.sso_backchannel_logout',
      objectType: 'user',
      objectId: userId,
      outcome: 'success',
      details: { sessionsEnded: ended.length },
    },
  });
  return ended.length;
}
