import * as client from 'openid-client';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { oidcClientFor } from './oidc-client.js';
import { ssoCallbackUrl } from './start-sso-login.js';
import type { TSsoTransaction } from './sso-store.js';

export interface TSsoClaims {
  issuer: string;
  subject: string;
  sid: string | null;
  idToken: string;
  /** The ID token's claims merged over by nothing: userinfo only fills claims the token lacks. */
  claims: Record<string, unknown>;
}

/**
 * Trades the callback's code for tokens: openid-client checks the state, the PKCE verifier, the
 * ID token's signature, issuer, audience, nonce and times (with OIDC_CLOCK_TOLERANCE_SECONDS).
 * Claims the ID token lacks (an IdP may keep e-mail or groups for userinfo) come from userinfo.
 * A refusal of any check is BAD_REQUEST; the detail goes to the log, never to the browser.
 */
export async function exchangeSsoCode(
  opts: Pick<AppDeps, 'config' | 'log'> & { callbackQuery: string; transaction: TSsoTransaction },
): Promise<TSsoClaims> {
  const { config, log, transaction } = opts;
  const oidc = oidcClientFor(config);
  if (!oidc) throw new Error('exchangeSsoCode without OIDC_ISSUER');
  const conf = await oidc.configuration();
  const currentUrl = new URL(ssoCallbackUrl(config));
  currentUrl.search = opts.callbackQuery;
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(conf, currentUrl, {
      pkceCodeVerifier: transaction.verifier,
      expectedState: transaction.state,
      expectedNonce: transaction.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    log.warn({ err }, 'SSO callback refused');
    throw new AppError('BAD_REQUEST', 'The sign-in response was refused', { cause: err });
  }
  const idClaims = tokens.claims();
  if (!idClaims || !tokens.id_token) throw new AppError('BAD_REQUEST', 'The sign-in response had no ID token');
  let extra: Record<string, unknown> = {};
  if (tokens.access_token && conf.serverMetadata().userinfo_endpoint) {
    extra = await client.fetchUserInfo(conf, tokens.access_token, idClaims.sub).catch((err: unknown) => {
      log.warn({ err }, 'SSO userinfo failed; using the ID token alone');
      return {};
    });
  }
  return {
    issuer: idClaims.iss,
    subject: idClaims.sub,
    sid: typeof idClaims.sid === 'string' ? idClaims.sid : null,
    idToken: tokens.id_token,
    claims: { ...extra, ...idClaims },
  };
}
