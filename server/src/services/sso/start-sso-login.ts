import * as client from 'openid-client';
import type { AppDeps } from '../../deps.js';
import { newToken } from '../../lib/tokens.js';
import { oidcClientFor } from './oidc-client.js';
import { saveSsoStep } from './sso-store.js';

export const ssoCallbackUrl = (config: AppDeps['config']) => new URL('/api/auth/oidc/callback', config.PUBLIC_URL);

/**
 * The IdP's authorization URL for a new login (code flow, PKCE S256, state, nonce), and the id
 * of its transaction, which the route puts in a cookie: the callback only completes in the
 * browser that started it. Throws UNAVAILABLE when the IdP has never answered discovery.
 */
export async function startSsoLogin(
  opts: Pick<AppDeps, 'config' | 'redis'> & { linkUserId?: string },
): Promise<{ url: string; transactionId: string }> {
  const { config } = opts;
  const oidc = oidcClientFor(config);
  if (!oidc) throw new Error('startSsoLogin without OIDC_ISSUER');
  const conf = await oidc.configuration();
  const tx = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    ...(opts.linkUserId ? { linkUserId: opts.linkUserId } : {}),
  };
  const transactionId = newToken();
  await saveSsoStep({ config, redis: opts.redis, kind: 'tx', id: transactionId, value: tx });
  const url = client.buildAuthorizationUrl(conf, {
    redirect_uri: ssoCallbackUrl(config).href,
    scope: config.OIDC_SCOPES,
    state: tx.state,
    nonce: tx.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(tx.verifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, transactionId };
}
