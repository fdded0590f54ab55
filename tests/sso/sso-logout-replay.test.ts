import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { rest, signUpUser } from '../auth/auth-helpers.js';
import type { TTestIdp } from '../helpers/start-oidc-provider.js';
import { cookieValue, idpPerson, ssoLogin, SSO_PUBLIC_URL, useSsoApp } from '../helpers/sso-flow.js';
import type { TestApp } from '../helpers/test-app.js';
import { uniqueSuffix } from '../helpers/test-config.js';

/**
 * Issue 39 against a real OpenID Provider: the spec's `POST /api/settings/logout` ends an SSO
 * session at the IdP too (the Info item: only /api/auth/oidc/logout did), and a state or code
 * is good for one browser, once (from the scan's "not reached" list).
 */
describe('SSO: the spec logout and replayed callbacks', () => {
  let idp: TTestIdp;
  let t: TestApp;
  useSsoApp({ OIDC_AUTO_REGISTER: 'true', OIDC_ALLOWED_DOMAINS: 'hospital.example' }, (app, provider) => {
    t = app;
    idp = provider;
  });

  const person = (tag: string) =>
    idpPerson(idp, { email: `${tag}-${uniqueSuffix()}@hospital.example`, email_verified: true });
  const me = async (token: string) => (await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token })).status;

  test("POST /api/settings/logout answers the IdP's end-session address for an SSO session, null otherwise", async () => {
    const { token } = await ssoLogin(t, idp, person('spec-logout'));
    assert.ok(token);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/settings/logout',
      cookies: { token },
      headers: { 'content-type': 'application/json', origin: SSO_PUBLIC_URL },
      payload: {},
    });
    assert.equal(out.statusCode, 200);
    const body = out.json() as { success: boolean; message: string; redirectUrl: string | null };
    assert.equal(body.success, true);
    const url = new URL(String(body.redirectUrl));
    assert.equal(url.origin, idp.issuer);
    assert.ok(url.searchParams.get('id_token_hint'));
    assert.equal(url.searchParams.get('post_logout_redirect_uri'), `${SSO_PUBLIC_URL}/login`);
    const atIdp = await fetch(url, { redirect: 'manual' });
    assert.equal(atIdp.status, 200, 'the IdP accepts the hint and shows its logout confirmation');
    assert.equal(await me(token), 401, 'the app session is over');

    const local = await signUpUser(t.app);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/settings/logout',
      headers: { authorization: `Bearer ${local.token}` },
    });
    assert.equal(plain.statusCode, 200);
    assert.equal((plain.json() as { redirectUrl: string | null }).redirectUrl, null);
  });

  test('a callback (state and code) works once, and only in the browser that started it', async () => {
    const sub = person('replay');
    let callback: URL | null = null;
    let txA = '';
    const first = await ssoLogin(t, idp, sub, async (cb, tx) => {
      callback = new URL(cb.href);
      txA = tx;
    });
    assert.equal(first.location, '/');
    const replayed = callback as URL | null;
    assert.ok(replayed);
    const back = (cb: URL, tx?: string) =>
      t.app.inject({ method: 'GET', url: cb.pathname + cb.search, cookies: tx ? { sso_tx: tx } : {} });

    const again = await back(replayed, txA);
    assert.equal(again.headers.location, '/login?sso_error=bad_response', 'same browser, second use');
    assert.equal(cookieValue(again, 'token'), undefined);

    // Another browser with a login of its own in flight presents the first browser's callback.
    idp.nextLogin = sub;
    const startB = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
    const txB = cookieValue(startB, 'sso_tx');
    assert.ok(txB);
    const otherBrowser = await back(replayed, txB);
    assert.equal(otherBrowser.headers.location, '/login?sso_error=bad_response', "another browser's state");
    // Its own state with the first browser's (spent) code: the PKCE verifier and the code disagree.
    const ownState = new URL(replayed.href);
    ownState.searchParams.set('state', new URL(String(startB.headers.location)).searchParams.get('state') ?? '');
    const spliced = await back(ownState, txB);
    assert.equal(spliced.headers.location, '/login?sso_error=bad_response', 'a code minted for another login');
    assert.equal(cookieValue(spliced, 'token'), undefined);
  });

  test("an unused code from one browser's login is refused in another browser's", async () => {
    const sub = person('cross');
    idp.nextLogin = sub;
    const startA = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
    const cbA = await idp.signIn(String(startA.headers.location));
    idp.nextLogin = sub;
    const startB = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
    const txB = cookieValue(startB, 'sso_tx');
    assert.ok(txB);
    const stolen = new URL(cbA.href);
    stolen.searchParams.set('state', new URL(String(startB.headers.location)).searchParams.get('state') ?? '');
    const res = await t.app.inject({ method: 'GET', url: stolen.pathname + stolen.search, cookies: { sso_tx: txB } });
    assert.equal(res.headers.location, '/login?sso_error=bad_response');
    assert.equal(cookieValue(res, 'token'), undefined);
  });
});
