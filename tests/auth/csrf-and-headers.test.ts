import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { users } from '../../server/src/db/schema.js';
import { HOST_SESSION_COOKIE } from '../../server/src/lib/request-auth.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { FAST_HASH_ENV, PASSWORD, randomIp, rest, signUpUser, uniqueEmail } from './auth-helpers.js';

const PUBLIC_URL = 'https://cxr.hospital.example';

function assertSecurityHeaders(res: LightMyRequestResponse, where: string) {
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /frame-ancestors 'none'/, where);
  assert.match(csp, /script-src 'self'/, where);
  assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/, where);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', where);
  assert.equal(res.headers['referrer-policy'], 'no-referrer', where);
  assert.match(String(res.headers['strict-transport-security']), /max-age=31536000/, where);
}

for (const backend of testBackends()) {
  describe(`cross-site requests and security headers on ${backend}`, () => {
    let t: TestApp;
    let u: { id: string; token: string; email: string };
    beforeAll(async () => {
      t = await createTestApp({ backend, env: { ...FAST_HASH_ENV, PUBLIC_URL } });
      u = await signUpUser(t.app, { name: 'Dr Original' });
    });
    afterAll(async () => {
      await t.close();
    });

    const nameNow = async () =>
      (await t.deps.db.select({ name: users.name }).from(users).where(eq(users.id, u.id)))[0]?.name;
    const post = (url: string, method: 'POST' | 'PUT', headers: Record<string, string>, payload: string) =>
      t.app.inject({ method, url, headers, cookies: { [HOST_SESSION_COOKIE]: u.token }, payload });

    test('req 8: a cookie-authenticated form or text/plain post is refused', async () => {
      const attempts = [
        post('/api/settings/change-name', 'PUT', { 'content-type': 'text/plain' }, '{"name":"Dr Forged"}'),
        post(
          '/api/settings/change-name',
          'PUT',
          { 'content-type': 'application/x-www-form-urlencoded' },
          'name=Dr+Forged',
        ),
        post('/trpc/settings.changeName', 'POST', { 'content-type': 'text/plain' }, '{"name":"Dr Forged"}'),
        post(
          '/api/settings/clear-profiles',
          'POST',
          { 'content-type': 'application/x-www-form-urlencoded' },
          'confirm_clear=true',
        ),
      ];
      for (const res of await Promise.all(attempts)) {
        assert.equal(res.statusCode, 403, res.body);
        assert.equal(res.json().message, 'Cross-site request refused');
      }
      assert.equal(await nameNow(), 'Dr Original');
    });

    test('req 8: JSON from a foreign Origin or a cross-site fetch is refused', async () => {
      const json = { 'content-type': 'application/json' };
      const attempts = [
        post('/api/settings/change-name', 'PUT', { ...json, origin: 'https://evil.example' }, '{"name":"Dr Forged"}'),
        post('/api/settings/change-name', 'PUT', { ...json, 'sec-fetch-site': 'cross-site' }, '{"name":"Dr Forged"}'),
        post('/api/settings/change-name', 'PUT', { ...json, 'sec-fetch-site': 'same-site' }, '{"name":"Dr Forged"}'),
        post('/trpc/settings.changeName', 'POST', { ...json, origin: 'https://evil.example' }, '{"name":"Dr Forged"}'),
        post('/api/settings/logout', 'POST', { ...json, origin: 'null' }, '{}'),
      ];
      for (const res of await Promise.all(attempts)) assert.equal(res.statusCode, 403, res.body);
      assert.equal(await nameNow(), 'Dr Original');
      assert.equal(
        (await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: u.token, cookieName: HOST_SESSION_COOKIE }))
          .status,
        200,
        'logout was refused too',
      );
    });

    test('req 8: the same call from our own page goes through', async () => {
      const res = await post(
        '/api/settings/change-name',
        'PUT',
        {
          'content-type': 'application/json',
          origin: PUBLIC_URL,
          'sec-fetch-site': 'same-origin',
        },
        '{"name":"Dr Legit"}',
      );
      assert.equal(res.statusCode, 200);
      assert.equal(await nameNow(), 'Dr Legit');
    });

    test('req 2: on https the session cookie is Secure and named __Host-token (issue 23)', async () => {
      const r = await rest(
        t.app,
        'POST',
        '/api/auth/login',
        { email: u.email, password: PASSWORD },
        { ip: randomIp() },
      );
      const cookies = [r.res.headers['set-cookie']].flat();
      const cookie = cookies.find((c) => c?.startsWith(`${HOST_SESSION_COOKIE}=`));
      assert.match(String(cookie), /; Path=\/; /);
      assert.match(String(cookie), /; Secure/);
      assert.doesNotMatch(String(cookie), /Domain=/i);
      assert.equal(
        cookies.find((c) => c?.startsWith('token=')),
        undefined,
        'no plain token cookie',
      );
      const token = /=([^;]+)/.exec(String(cookie))?.[1] ?? '';
      assert.equal(
        (await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token, cookieName: HOST_SESSION_COOKIE }))
          .status,
        200,
      );
      // A plain `token` cookie could have been planted by a sibling subdomain or over http: ignored.
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: token })).status, 401);
      const logout = await t.app.inject({
        method: 'POST',
        url: '/api/settings/logout',
        headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
        cookies: { [HOST_SESSION_COOKIE]: token },
        payload: '{}',
      });
      assert.equal(logout.statusCode, 200, logout.body);
      assert.match(
        String([logout.headers['set-cookie']].flat().find((c) => c?.startsWith(`${HOST_SESSION_COOKIE}=`))),
        /Expires=Thu, 01 Jan 1970/,
        'logout expires the __Host- cookie',
      );
    });

    test('req 9: security headers (CSP, frame-ancestors, nosniff, Referrer-Policy, HSTS on https) on every response', async () => {
      const ok = await rest(
        t.app,
        'POST',
        '/api/auth/login',
        { email: u.email, password: PASSWORD },
        { ip: randomIp() },
      );
      const denied = await rest(
        t.app,
        'POST',
        '/api/auth/login',
        { email: u.email, password: 'wrong password' },
        { ip: randomIp() },
      );
      const invalid = await rest(t.app, 'POST', '/api/auth/signup', { name: 'x' });
      const unauth = await rest(t.app, 'GET', '/api/auth/me');
      const viaTrpc = await t.app.inject({ method: 'GET', url: '/trpc/auth.me' });
      assertSecurityHeaders(ok.res, 'login 200');
      assertSecurityHeaders(denied.res, 'login 401');
      assertSecurityHeaders(invalid.res, 'signup 400');
      assertSecurityHeaders(unauth.res, 'me 401');
      assertSecurityHeaders(viaTrpc, 'trpc 401');
    });
  });
}

describe('security headers on plain http', () => {
  // One app for both: PUBLIC_URL and TRUST_PROXY are read at boot, and a request without
  // X-Forwarded-Proto is plain http behind a trusted proxy too.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...FAST_HASH_ENV, TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await t.close();
  });

  test('req 9: no HSTS when PUBLIC_URL is http (it would pin a site that has no TLS)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/check-email', payload: { email: 'a@b.co' } });
    assert.equal(res.headers['strict-transport-security'], undefined);
    assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
  });

  test('the session cookie is plain `token` on http, and __Host-token on a secure request behind a trusted proxy (issue 23)', async () => {
    const signup = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        headers,
        remoteAddress: randomIp(),
        payload: { name: 'Dr Proxy', email: uniqueEmail('proxy'), password: PASSWORD },
      });
    const plain = [(await signup({})).headers['set-cookie']].flat();
    assert.match(String(plain.find((c) => c?.startsWith('token='))), /HttpOnly/);
    assert.doesNotMatch(String(plain.find((c) => c?.startsWith('token='))), /Secure/);
    assert.equal(
      plain.find((c) => c?.startsWith(`${HOST_SESSION_COOKIE}=`)),
      undefined,
    );
    const secure = [(await signup({ 'x-forwarded-proto': 'https' })).headers['set-cookie']].flat();
    assert.match(String(secure.find((c) => c?.startsWith(`${HOST_SESSION_COOKIE}=`))), /; Secure/);
    assert.equal(
      secure.find((c) => c?.startsWith('token=')),
      undefined,
    );
  });
});
