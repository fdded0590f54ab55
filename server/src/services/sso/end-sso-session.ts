import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { oidcSessions } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import type { TAuth } from '../auth/resolve-session.js';
import { logOut } from '../auth/log-out.js';
import { oidcClientFor } from './oidc-client.js';

/**
 * RP-initiated logout: ends the app session like any logout, and when it came from SSO returns
 * the IdP's end_session_endpoint with the ID token as id_token_hint, so the browser ends the IdP
 * session too (otherwise the next "Sign in" would pass straight through). Null when there is
 * nothing to end at the IdP, or the IdP cannot be reached (the app session is ended anyway).
 */
export async function endSsoSession(
  opts: Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'> & { meta: RequestMeta; auth: TAuth | null },
): Promise<string | null> {
  const { db, config, log, auth } = opts;
  const [row] = auth?.sessionId
    ? await db
        .select({ idToken: oidcSessions.idToken })
        .from(oidcSessions)
        .where(eq(oidcSessions.sessionId, auth.sessionId))
        .limit(1)
    : [];
  await logOut(opts);
  const oidc = oidcClientFor(config);
  if (!row || !oidc) return null;
  try {
    const conf = await oidc.configuration();
    if (!conf.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(conf, {
      id_token_hint: row.idToken,
      post_logout_redirect_uri: new URL('/login', config.PUBLIC_URL).href,
    }).href;
  } catch (err) {
    log.warn({ err }, 'SSO logout could not reach the IdP; the app session is ended');
    return null;
  }
}
