import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, userIdentities } from '../../server/src/db/schema.js';
import { PASSWORD, rest, signUpUser, uniqueEmail } from '../auth/auth-helpers.js';
import { SSO_MESSAGES } from '@contracts/schemas/sso.js';
import type { TTestIdp } from '../helpers/start-oidc-provider.js';
import { cookieValue, idpPerson, SSO_PUBLIC_URL, ssoLogin, useSsoApp } from '../helpers/sso-flow.js';
import { createTeam } from '../helpers/team-factories.js';
import type { TestApp } from '../helpers/test-app.js';
import { uniqueSuffix } from '../helpers/test-config.js';

const PUBLIC_URL = SSO_PUBLIC_URL;

const auditActions = async (t: TestApp, userId: string) =>
  (await t.deps.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.objectId, userId))).map(
    (r) => r.action,
  );

describe('OIDC single sign-on against a real OpenID Provider', () => {
  let idp: TTestIdp;
  let t: TestApp;
  useSsoApp({ OIDC_AUTO_REGISTER: 'true', OIDC_ALLOWED_DOMAINS: 'hospital.example' }, (app, provider) => {
    t = app;
    idp = provider;
  });

  test('the login page learns the button text without a call to the IdP', async () => {
    const r = await rest(t.app, 'GET', '/api/auth/oidc/options');
    assert.deepEqual(r.body, { sso: true, buttonText: 'St Elsewhere', passwordLogin: true });
  });

  test('a new person from an allowed domain is registered, and the same (issuer, sub) signs in again', async () => {
    const email = `ada-${uniqueSuffix()}@hospital.example`;
    const sub = idpPerson(idp, { email, email_verified: true, name: 'Dr Ada Lovelace' });
    const first = await ssoLogin(t, idp, sub);
    assert.equal(first.location, '/');
    assert.ok(first.token);
    const me = await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: first.token });
    const user = me.body.user as { id: string; email: string; name: string };
    assert.equal(user.email, email);
    assert.equal(user.name, 'Dr Ada Lovelace');
    // The IdP changes the address: the identity, not the e-mail, finds the account.
    idp.accounts.set(sub, { email: `renamed-${email}`, email_verified: true });
    const second = await ssoLogin(t, idp, sub);
    const again = await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: String(second.token) });
    assert.equal((again.body.user as { id: string }).id, user.id);
    const actions = await auditActions(t, user.id);
    assert.ok(actions.includes('auth.sso_register'));
    assert.equal(actions.filter((a) => a === 'auth.sso_login').length, 2);
    // No password matches an SSO-made account.
    const pw = await rest(t.app, 'POST', '/api/auth/login', { email, password: '!sso-only' });
    assert.equal(pw.status, 401);
  });

  test('a domain outside OIDC_ALLOWED_DOMAINS gets no account', async () => {
    const sub = idpPerson(idp, { email: `eve-${uniqueSuffix()}@elsewhere.example`, email_verified: true });
    const r = await ssoLogin(t, idp, sub);
    assert.equal(r.location, '/login?sso_error=domain_not_allowed');
    assert.equal(r.token, undefined);
  });

  test('an unverified e-mail that matches a local account is refused: no take-over, no link', async () => {
    const victim = await signUpUser(t.app);
    const sub = idpPerson(idp, { email: victim.email, email_verified: false });
    const r = await ssoLogin(t, idp, sub);
    assert.equal(r.location, '/login?sso_error=email_unverified');
    assert.equal(r.token, undefined);
    const linked = await t.deps.db.select().from(userIdentities).where(eq(userIdentities.userId, victim.id));
    assert.equal(linked.length, 0);
    assert.ok((await auditActions(t, victim.id)).includes('auth.sso_login'), 'the refusal is audited');
  });

  test('a verified e-mail links only after the local password is typed once', async () => {
    const local = await signUpUser(t.app);
    const sub = idpPerson(idp, { email: local.email, email_verified: true });
    const r = await ssoLogin(t, idp, sub);
    assert.equal(r.location, '/login?sso_link=1');
    assert.equal(r.token, undefined, 'not signed in before the password');
    const link = cookieValue(r.res, 'sso_link');
    assert.ok(link);
    const post = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/oidc/link', payload: { password }, cookies: { sso_link: link } });
    const wrong = await post('not the password');
    assert.equal(wrong.statusCode, 401, wrong.body);
    const ok = await post(PASSWORD);
    assert.equal(ok.statusCode, 200);
    assert.equal((await post(PASSWORD)).statusCode, 400, 'a link confirms once');
    const [identity] = await t.deps.db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.issuer, idp.issuer), eq(userIdentities.subject, sub)));
    assert.equal(identity?.userId, local.id);
    const next = await ssoLogin(t, idp, sub);
    assert.equal(next.location, '/', 'later SSO logins need no password');
    assert.ok((await auditActions(t, local.id)).includes('auth.sso_link'));
  });

  test('a tampered state, nonce or PKCE verifier, or a missing transaction cookie, is refused', async () => {
    const sub = idpPerson(idp, { email: `tamper-${uniqueSuffix()}@hospital.example`, email_verified: true });
    const txKey = (tx: string) => `${t.deps.config.QUEUE_PREFIX}:sso:tx:${tx}`;
    const editTx = (field: 'nonce' | 'verifier') => async (_cb: URL, tx: string) => {
      const saved = JSON.parse(String(await t.deps.redis.get(txKey(tx)))) as Record<string, string>;
      await t.deps.redis.set(txKey(tx), JSON.stringify({ ...saved, [field]: `${saved[field]}x` }));
    };
    const state = await ssoLogin(t, idp, sub, async (cb) => {
      cb.searchParams.set('state', 'forged-state');
    });
    assert.equal(state.location, '/login?sso_error=bad_response');
    assert.equal((await ssoLogin(t, idp, sub, editTx('nonce'))).location, '/login?sso_error=bad_response');
    assert.equal((await ssoLogin(t, idp, sub, editTx('verifier'))).location, '/login?sso_error=bad_response');
    idp.nextLogin = sub;
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
    const cb = await idp.signIn(String(start.headers.location));
    const noCookie = await t.app.inject({ method: 'GET', url: cb.pathname + cb.search });
    assert.equal(noCookie.headers.location, '/login?sso_error=bad_response');
    // The untampered flow still works for this person, so the refusals above were the tampering.
    assert.equal((await ssoLogin(t, idp, sub)).location, '/');
  });

  test('back-channel logout ends the live session at once; a replayed or foreign-signed token is refused', async () => {
    const sub = idpPerson(idp, { email: `bcl-${uniqueSuffix()}@hospital.example`, email_verified: true });
    const { token } = await ssoLogin(t, idp, sub);
    const sid = idp.lastSid();
    assert.ok(token && sid);
    assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token })).status, 200);
    const send = (logoutToken: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/oidc/backchannel-logout',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ logout_token: logoutToken }).toString(),
      });
    const foreign = await send(await idp.logoutToken({ sid }, 'foreign'));
    assert.equal(foreign.statusCode, 400);
    assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token })).status, 200);
    const logoutToken = await idp.logoutToken({ sid });
    const ok = await send(logoutToken);
    assert.equal(ok.statusCode, 200);
    assert.equal((ok.json() as { ended: number }).ended, 1);
    assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token })).status, 401);
    assert.equal((await send(logoutToken)).statusCode, 400, 'replayed');
  });

  test('RP-initiated logout ends the session and sends the browser to end_session with id_token_hint', async () => {
    const sub = idpPerson(idp, { email: `rp-${uniqueSuffix()}@hospital.example`, email_verified: true });
    const { token } = await ssoLogin(t, idp, sub);
    assert.ok(token);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/oidc/logout',
      cookies: { token },
      headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
      payload: {},
    });
    assert.equal(out.statusCode, 200);
    const url = new URL(String((out.json() as { redirectUrl: string }).redirectUrl));
    assert.equal(url.origin, idp.issuer);
    assert.ok(url.searchParams.get('id_token_hint'));
    assert.equal(url.searchParams.get('post_logout_redirect_uri'), `${PUBLIC_URL}/login`);
    const atIdp = await fetch(url, { redirect: 'manual' });
    assert.equal(atIdp.status, 200, 'the IdP accepts the hint and shows its logout confirmation');
    assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token })).status, 401);
  });

  test("the menu's Logout (tRPC settings.logout) ends an SSO session at the IdP too; a password session gets no IdP address", async () => {
    const logout = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/trpc/settings.logout',
        cookies: { token: cookie },
        headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
        payload: {},
      });
    const redirectOf = (res: Awaited<ReturnType<typeof logout>>) =>
      (res.json() as { result: { data: { redirectUrl: string | null } } }).result.data.redirectUrl;
    const sub = idpPerson(idp, { email: `menu-${uniqueSuffix()}@hospital.example`, email_verified: true });
    const { token } = await ssoLogin(t, idp, sub);
    assert.ok(token);
    const out = await logout(token);
    assert.equal(out.statusCode, 200);
    const url = new URL(String(redirectOf(out)));
    assert.equal(url.origin, idp.issuer);
    assert.ok(url.searchParams.get('id_token_hint'));
    assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token })).status, 401);

    const local = await signUpUser(t.app);
    const plain = await logout(local.token);
    assert.equal(plain.statusCode, 200);
    assert.equal(redirectOf(plain), null);
  });

  test('an IdP clock 20 s ahead is tolerated, 120 s ahead is refused (OIDC_CLOCK_TOLERANCE_SECONDS 30)', async () => {
    const sub = idpPerson(idp, { email: `skew-${uniqueSuffix()}@hospital.example`, email_verified: true });
    try {
      idp.clockOffset = 20;
      const near = await ssoLogin(t, idp, sub);
      assert.equal(near.location, '/');
      assert.ok(near.token);
      // The ID token is "not valid before" two minutes from now by our clock.
      idp.clockOffset = 120;
      const far = await ssoLogin(t, idp, sub);
      assert.equal(far.location, '/login?sso_error=bad_response');
      assert.equal(far.token, undefined);
    } finally {
      idp.clockOffset = 0;
    }
    assert.equal((await ssoLogin(t, idp, sub)).location, '/', 'the same person with a right clock signs in');
  });

  test('with the IdP stopped, the cached discovery still starts a login', async () => {
    await idp.stop();
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
    assert.equal(start.statusCode, 302);
    assert.equal(new URL(String(start.headers.location)).origin, idp.issuer);
  });
});

describe('OIDC settings that refuse', () => {
  let idp: TTestIdp;
  let t: TestApp;
  useSsoApp({ OIDC_ROLE_STRICT: 'true', OIDC_TEAM_MAP: 'cxr-radiology=radiology:radiologist' }, (app, provider) => {
    t = app;
    idp = provider;
  });
  beforeAll(async () => {
    // The map names teams by slug; "Radiology" is `radiology`.
    await createTeam(t.deps, {}, { name: 'Radiology' });
  });

  test('auto-register off: an unknown person gets no account', async () => {
    const sub = idpPerson(idp, {
      email: uniqueEmail(),
      email_verified: true,
      groups: ['cxr-radiology'],
    });
    assert.equal((await ssoLogin(t, idp, sub)).location, '/login?sso_error=no_account');
  });

  test('strict roles: groups that map to no team refuse the login', async () => {
    const local = await signUpUser(t.app);
    const sub = idpPerson(idp, { email: local.email, email_verified: true, groups: ['cxr-cleaning'] });
    assert.equal((await ssoLogin(t, idp, sub)).location, '/login?sso_error=no_role');
    idp.accounts.set(sub, { email: local.email, email_verified: true, groups: ['cxr-radiology'] });
    assert.equal((await ssoLogin(t, idp, sub)).location, '/login?sso_link=1', 'a mapped group passes');
  });
});

describe('the IdP down at boot', () => {
  let t: TestApp;
  useSsoApp({}, (app) => (t = app), { idpDown: true });

  test('the app boots, the login page and password login work, SSO says the IdP is unreachable', async () => {
    assert.equal((await rest(t.app, 'GET', '/api/auth/oidc/options')).body.sso, true);
    const u = await signUpUser(t.app);
    const login = await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD });
    assert.equal(login.status, 200);
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
    assert.equal(start.statusCode, 302);
    assert.equal(start.headers.location, '/login?sso_error=idp_unreachable');
  });
});

describe('PASSWORD_LOGIN=off', () => {
  let t: TestApp;
  useSsoApp({ PASSWORD_LOGIN: 'off' }, (app) => (t = app), { idpDown: true });

  test('the password routes answer 403 with a message, and the login page is told to hide the form', async () => {
    assert.equal((await rest(t.app, 'GET', '/api/auth/oidc/options')).body.passwordLogin, false);
    const refused = { success: false, message: SSO_MESSAGES.passwordLoginOff, code: 'FORBIDDEN' };
    const email = uniqueEmail();
    const calls: [string, unknown][] = [
      ['/api/auth/signup', { name: 'Dr Nobody', email, password: PASSWORD }],
      ['/api/auth/login', { email, password: PASSWORD }],
      ['/api/auth/forgot-password', { email }],
    ];
    for (const [url, body] of calls) {
      const r = await rest(t.app, 'POST', url, body);
      assert.equal(r.status, 403, url);
      assert.deepEqual(r.body, refused, url);
    }
  });
});
