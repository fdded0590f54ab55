import assert from 'node:assert/strict';
import { afterAll, beforeAll } from 'vitest';
import { FAST_HASH_ENV } from '../auth/auth-helpers.js';
import { startOidcProvider, type TTestIdp } from './start-oidc-provider.js';
import { createTestApp, type TestApp } from './test-app.js';
import { uniqueSuffix, type TBackend } from './test-config.js';

export const SSO_PUBLIC_URL = 'http://localhost:3000';

/** The in-process IdP, registered for an app at `publicUrl`. */
export const idpFor = (publicUrl = SSO_PUBLIC_URL, opts: { interactive?: boolean } = {}) =>
  startOidcProvider({
    redirectUri: `${publicUrl}/api/auth/oidc/callback`,
    postLogoutUri: `${publicUrl}/login`,
    backchannelUri: `${publicUrl}/api/auth/oidc/backchannel-logout`,
    ...opts,
  });

/** The app's settings for SSO with `idp`. */
export const ssoEnv = (idp: TTestIdp, extra: Record<string, string> = {}) => ({
  ...FAST_HASH_ENV,
  OIDC_ISSUER: idp.issuer,
  OIDC_CLIENT_ID: idp.clientId,
  OIDC_CLIENT_SECRET: idp.clientSecret,
  OIDC_SCOPES: 'openid email profile groups',
  OIDC_BUTTON_TEXT: 'St Elsewhere',
  ...extra,
});

/**
 * The set-up every SSO suite shares: its own IdP and an app configured for it (`ssoEnv` plus
 * `env`), started before the describe block it is called in and closed after it. `use` receives
 * both; with `idpDown` the IdP is stopped before the app boots.
 */
export function useSsoApp(
  env: Record<string, string>,
  use: (t: TestApp, idp: TTestIdp) => void,
  opts: { backend?: TBackend; idpDown?: boolean } = {},
): void {
  let t: TestApp | undefined;
  let idp: TTestIdp | undefined;
  beforeAll(async () => {
    idp = await idpFor();
    if (opts.idpDown) await idp.stop();
    t = await createTestApp({ env: ssoEnv(idp, env), ...(opts.backend ? { backend: opts.backend } : {}) });
    use(t, idp);
  });
  afterAll(async () => {
    await t?.close();
    if (!opts.idpDown) await idp?.stop();
  });
}

export function cookieValue(res: { cookies: { name: string; value: string }[] }, name: string): string | undefined {
  return res.cookies.find((c) => c.name === name && c.value !== '')?.value;
}

/** A person who exists at the IdP, with a fresh `sub`. */
export function idpPerson(idp: TTestIdp, claims: Record<string, unknown>): string {
  const sub = `sub-${uniqueSuffix()}`;
  idp.accounts.set(sub, claims);
  return sub;
}

/**
 * Click "Sign in with …" (with `opts.cookie`, a signed-in browser; with `opts.link`, from
 * Settings), sign in at the IdP as `sub`, come back: the app's answer to the callback.
 */
export async function ssoLogin(
  t: TestApp,
  idp: TTestIdp,
  sub: string,
  tamper?: (callback: URL, tx: string) => Promise<void>,
  opts: { cookie?: string; link?: boolean } = {},
) {
  idp.nextLogin = sub;
  const session: Record<string, string> = opts.cookie ? { token: opts.cookie } : {};
  const start = await t.app.inject({
    method: 'GET',
    url: `/api/auth/oidc/login${opts.link ? '?link=1' : ''}`,
    cookies: session,
  });
  assert.equal(start.statusCode, 302);
  const tx = cookieValue(start, 'sso_tx');
  assert.ok(tx, 'the login is tied to this browser');
  const authUrl = new URL(String(start.headers.location));
  assert.equal(authUrl.origin, idp.issuer);
  assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
  assert.ok(authUrl.searchParams.get('state') && authUrl.searchParams.get('nonce'));
  const callback = await idp.signIn(authUrl.href);
  await tamper?.(callback, tx);
  const res = await t.app.inject({
    method: 'GET',
    url: callback.pathname + callback.search,
    cookies: { ...session, sso_tx: tx },
  });
  assert.equal(res.statusCode, 302);
  return { location: String(res.headers.location), token: cookieValue(res, 'token'), res };
}
