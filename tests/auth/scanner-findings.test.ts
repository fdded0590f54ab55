import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { TRPC_MAX_BATCH_SIZE } from '@contracts/trpc-limits.js';
import { TEXT_MESSAGES } from '../../server/src/lib/inspect-text.js';
import { HOST_SESSION_COOKIE } from '../../server/src/lib/request-auth.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FAST_HASH_ENV, PASSWORD, randomIp, rest, signUpUser, trpc, uniqueEmail } from './auth-helpers.js';

/**
 * Issue 15's scanner findings F1–F4 and the Info items on the HTTP edge, one regression each.
 * The global per-IP limiter is on here (RATE_LIMIT_DISABLED is not set), as in production.
 */
const PUBLIC_URL = 'https://cxr.hospital.example';
const FAILURES_PER_ACCOUNT = 3;

describe('scanner findings (issue 15)', () => {
  let t: TestApp;
  let u: { id: string; token: string; email: string };
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ...FAST_HASH_ENV,
        PUBLIC_URL,
        LOGIN_FAILURES_PER_ACCOUNT: String(FAILURES_PER_ACCOUNT),
        // Attempts in flight are not failures (issue 23 N6), so the per-address attempt limit
        // is what stops a parallel batch of guesses (see the batch test below).
        AUTH_ATTEMPTS_PER_IP_PER_MINUTE: String(FAILURES_PER_ACCOUNT),
      },
    });
    u = await signUpUser(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const batchUrl = (path: string, n: number) => `/trpc/${Array.from({ length: n }, () => path).join(',')}?batch=1`;
  const batchPost = (path: string, inputs: unknown[], ip: string) =>
    t.app.inject({
      method: 'POST',
      url: batchUrl(path, inputs.length),
      headers: { 'content-type': 'application/json' },
      remoteAddress: ip,
      payload: JSON.stringify(Object.fromEntries(inputs.map((input, i) => [String(i), input]))),
    });
  const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers['x-ratelimit-remaining']);

  describe('F1: tRPC batching', () => {
    test(`a batch longer than ${TRPC_MAX_BATCH_SIZE} calls is refused without running any`, async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: batchUrl('auth.me', TRPC_MAX_BATCH_SIZE + 1),
        headers: { authorization: `Bearer ${u.token}` },
      });
      assert.equal(res.statusCode, 400, res.body);
      const ok = await t.app.inject({
        method: 'GET',
        url: batchUrl('auth.me', TRPC_MAX_BATCH_SIZE),
        headers: { authorization: `Bearer ${u.token}` },
      });
      assert.equal(ok.statusCode, 200, ok.body);
    });

    test('each call of a batch counts against the per-IP limiter, not the request', async () => {
      const ip = randomIp();
      // Anonymous, as the logins are: a signed-in request spends its account's budget instead.
      const first = await rest(t.app, 'POST', '/api/auth/check-email', { email: u.email }, { ip });
      const before = remaining(first.res);
      // As many as the address's login attempts per minute.
      const logins = Array.from({ length: FAILURES_PER_ACCOUNT }, () => ({ email: u.email, password: PASSWORD }));
      const batch = await batchPost('auth.login', logins, ip);
      assert.equal(batch.statusCode, 200, batch.body.slice(0, 400));
      assert.equal(remaining(batch), before - FAILURES_PER_ACCOUNT, 'each login in one request costs one request');
    });

    test('batched wrong passwords are all counted by the per-address attempt limit: none past it reaches argon2', async () => {
      const email = uniqueEmail('batch');
      await signUpUser(t.app, { email });
      const res = await batchPost(
        'auth.login',
        Array.from({ length: 8 }, () => ({ email, password: 'wrong password 1' })),
        randomIp(),
      );
      const codes = (res.json() as { error?: { data: { httpStatus: number } } }[]).map((r) => r.error?.data.httpStatus);
      assert.equal(codes.filter((c) => c === 401).length, FAILURES_PER_ACCOUNT, JSON.stringify(codes));
      assert.equal(codes.filter((c) => c === 429).length, 8 - FAILURES_PER_ACCOUNT, JSON.stringify(codes));
      // The lockout holds for the right password too, as for one-by-one attempts.
      assert.equal(
        (await trpc(t.app, 'mutation', 'auth.login', { email, password: PASSWORD }, { ip: randomIp() })).status,
        429,
      );
    });

    test('a correct password still clears the account counter', async () => {
      const email = uniqueEmail('ok');
      await signUpUser(t.app, { email });
      let ip = randomIp();
      for (let i = 0; i < FAILURES_PER_ACCOUNT - 1; i++) {
        assert.equal(
          (await rest(t.app, 'POST', '/api/auth/login', { email, password: 'wrong password 1' }, { ip })).status,
          401,
        );
      }
      assert.equal((await rest(t.app, 'POST', '/api/auth/login', { email, password: PASSWORD }, { ip })).status, 200);
      // That address has used its attempts for this minute; the account's counter is what is checked.
      ip = randomIp();
      for (let i = 0; i < FAILURES_PER_ACCOUNT - 1; i++) {
        assert.equal(
          (await rest(t.app, 'POST', '/api/auth/login', { email, password: 'wrong password 1' }, { ip })).status,
          401,
        );
      }
      assert.equal((await rest(t.app, 'POST', '/api/auth/login', { email, password: PASSWORD }, { ip })).status, 200);
    });
  });

  describe('F2: the U+0000 guard', () => {
    const deep = (levels: number, leaf = '"x"') => `{"name":${'['.repeat(levels)}${leaf}${']'.repeat(levels)}}`;

    test('JSON nested 5,000 levels deep answers 400, not 500', async () => {
      for (const url of ['/api/auth/login', '/api/auth/signup']) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          remoteAddress: randomIp(),
          payload: deep(5000),
        });
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.equal(res.json().code, 'BAD_REQUEST');
      }
      const trpcRes = await t.app.inject({
        method: 'POST',
        url: '/trpc/auth.login',
        headers: { 'content-type': 'application/json' },
        payload: deep(5000),
      });
      assert.equal(trpcRes.statusCode, 400, trpcRes.body);
    });

    test('a U+0000 deep in a body or in a key is still refused', async () => {
      for (const payload of [deep(20, '"a\\u0000b"'), '{"email":"a@b.org","password":"x","n\\u0000":1}']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'content-type': 'application/json' },
          remoteAddress: randomIp(),
          payload,
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().message, TEXT_MESSAGES.invalid);
      }
    });
  });

  describe('F3: CSRF and the Authorization header', () => {
    const crossSite = {
      'content-type': 'application/json',
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    };

    test('a cookie beside `Authorization: Basic` (or an unknown bearer) is still checked', async () => {
      const victim = await signUpUser(t.app);
      for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer not-a-token']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/settings/logout',
          headers: { ...crossSite, authorization },
          cookies: { [HOST_SESSION_COOKIE]: victim.token },
          payload: '{}',
        });
        assert.equal(res.statusCode, 403, `${authorization}: ${res.body}`);
        const dl = await t.app.inject({
          method: 'GET',
          url: `/api/export/${randomUUID()}.pdf`,
          headers: { 'sec-fetch-site': 'cross-site', authorization },
          cookies: { [HOST_SESSION_COOKIE]: victim.token },
        });
        // An unknown bearer token authenticates nobody (the cookie is not used beside it): 401.
        assert.equal(
          dl.statusCode,
          authorization.startsWith('Basic') ? 403 : 401,
          `export with ${authorization}: ${dl.body}`,
        );
      }
      assert.equal(
        (await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: victim.token, cookieName: HOST_SESSION_COOKIE }))
          .status,
        200,
        'the session survived',
      );
    });

    test('a request a Bearer token actually authenticates skips the check', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/settings/change-name',
        headers: { ...crossSite, authorization: `Bearer ${u.token}` },
        cookies: { [HOST_SESSION_COOKIE]: u.token },
        payload: '{"name":"Dr Bearer"}',
      });
      assert.equal(res.statusCode, 200, res.body);
    });
  });

  describe('F4: Cache-Control on authenticated answers', () => {
    test('REST and tRPC answers, login answers carrying a token and errors are private, no-store', async () => {
      const answers = [
        (await rest(t.app, 'GET', '/api/auth/me', undefined, { cookie: u.token, cookieName: HOST_SESSION_COOKIE })).res,
        (await rest(t.app, 'GET', '/api/profile', undefined, { bearer: u.token })).res,
        (await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD }, { ip: randomIp() })).res,
        await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${u.token}` } }),
        await t.app.inject({
          method: 'POST',
          url: '/trpc/auth.login',
          headers: { 'content-type': 'application/json' },
          remoteAddress: randomIp(),
          payload: JSON.stringify({ email: u.email, password: PASSWORD }),
        }),
        await t.app.inject({
          method: 'GET',
          url: `/trpc/export.file?input=${encodeURIComponent(JSON.stringify({ chatId: randomUUID(), format: 'json' }))}`,
          headers: { authorization: `Bearer ${u.token}` },
        }),
      ];
      for (const res of answers)
        assert.equal(res.headers['cache-control'], 'private, no-store', `${res.statusCode} ${res.body.slice(0, 80)}`);
    });
  });

  describe('Info items', () => {
    test('health endpoints are outside the per-IP limiter', async () => {
      const ip = randomIp();
      for (let i = 0; i < 605; i++) {
        const res = await t.app.inject({ method: 'GET', url: i % 2 ? '/healthz' : '/readyz', remoteAddress: ip });
        assert.equal(res.statusCode, 200, `request ${i}: ${res.body}`);
        assert.equal(res.headers['x-ratelimit-limit'], undefined);
      }
    });

    test('export.file over tRPC refuses a cross-site browser request like the REST route', async () => {
      const input = encodeURIComponent(JSON.stringify({ chatId: randomUUID(), format: 'json' }));
      const cross = await t.app.inject({
        method: 'GET',
        url: `/trpc/export.file?input=${input}`,
        headers: { 'sec-fetch-site': 'cross-site' },
        cookies: { [HOST_SESSION_COOKIE]: u.token },
      });
      assert.equal(cross.statusCode, 403, cross.body);
      const own = await t.app.inject({
        method: 'GET',
        url: `/trpc/export.file?input=${input}`,
        headers: { 'sec-fetch-site': 'same-origin' },
        cookies: { [HOST_SESSION_COOKIE]: u.token },
      });
      assert.equal(own.statusCode, 404, own.body);
      const bearer = await t.app.inject({
        method: 'GET',
        url: `/trpc/export.file?input=${input}`,
        headers: { 'sec-fetch-site': 'cross-site', authorization: `Bearer ${u.token}` },
      });
      assert.equal(bearer.statusCode, 404, bearer.body);
    });
  });
});
