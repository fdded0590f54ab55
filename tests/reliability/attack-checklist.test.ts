import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createChat, createUser, storeImage } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testPatientName } from '../helpers/test-patients.js';
import { registeredRoutes, trpcProcedures } from './fuzz-kit.js';

/**
 * The attack checklist, cross-cutting: each property checked against EVERY route and procedure
 * the app registers (the auth tests check the same properties on their own calls). Cookie flags,
 * reset-token reuse/expiry and the access matrix are proven in tests/auth and tests/history.
 */

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const concrete = (url: string, id: string) => url.replace(/:[A-Za-z_]+/g, id);

/**
 * One app for the route-wide checks and the timing ones below: production hashing cost (the
 * timing needs it; the route-wide checks hash three passwords with it, and assert nothing about
 * time), the global limiter off and the auth limits raised so 400 attempts fit. The lockout
 * describe keeps its own app: its window and failure limit are read at boot.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      RATE_LIMIT_DISABLED: 'true',
      LOGIN_FAILURES_PER_ACCOUNT: '100000',
      LOGIN_FAILURES_PER_IP: '100000',
      AUTH_ATTEMPTS_PER_IP_PER_MINUTE: '100000',
      RESET_REQUESTS_PER_IP_PER_HOUR: '100000',
      RESET_REQUESTS_PER_EMAIL_PER_HOUR: '100000',
    },
  });
});
afterAll(() => t.close());

describe('attack checklist on every route', () => {
  test('session replay: after logout the old token opens nothing, by bearer or cookie, on any route or procedure', async () => {
    const { user, token } = await createUser(t.deps);
    const { chat } = await createChat(t.deps, user.id, { withImage: true, withMessages: true });
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/settings/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(out.statusCode, 200);
    // A logged-out token must be worth exactly nothing: every call answers as it does to an
    // anonymous caller (401 wherever a session is needed; public routes stay public).
    const send = (
      method: string,
      url: string,
      auth: { headers?: Record<string, string>; cookies?: Record<string, string> },
    ) =>
      t.app.inject({
        method: method as InjectOptions['method'],
        url,
        headers: { 'content-type': 'application/json', ...auth.headers },
        ...(auth.cookies ? { cookies: auth.cookies } : {}),
        payload:
          method === 'GET' ? undefined : JSON.stringify({ chat_id: chat.id, chatId: chat.id, title: 'x', name: 'x' }),
      });
    let checked = 0;
    let refused = 0;
    const calls = [
      ...registeredRoutes(t.app)
        .filter((x) => !x.url.startsWith('/trpc') && x.url !== '/api/settings/logout')
        .map((r) => ({ method: r.method, url: concrete(r.url, chat.id) })),
      ...trpcProcedures()
        .filter((p) => p.type !== 'subscription' && p.path !== 'settings.logout')
        .map((p) =>
          p.type === 'query'
            ? { method: 'GET', url: `/trpc/${p.path}?input=${encodeURIComponent(JSON.stringify({ chatId: chat.id }))}` }
            : { method: 'POST', url: `/trpc/${p.path}` },
        ),
    ];
    for (const c of calls) {
      const anonymous = await send(c.method, c.url, {});
      for (const auth of [{ headers: { authorization: `Bearer ${token}` } }, { cookies: { token } }]) {
        const res = await send(c.method, c.url, auth);
        assert.equal(
          res.statusCode,
          anonymous.statusCode,
          `${c.method} ${c.url} with a logged-out token answered ${res.statusCode}, anonymous ${anonymous.statusCode}`,
        );
        assert.equal(
          res.body.replace(/"requestId":"[^"]*"/, ''),
          anonymous.body.replace(/"requestId":"[^"]*"/, ''),
          `${c.method} ${c.url}: same body as anonymous`,
        );
        checked++;
        if (res.statusCode === 401) refused++;
      }
    }
    assert.ok(refused > 40, `${refused} of ${checked} calls refused with 401`);
  });

  test('CSRF: with cookie auth, every mutating route refuses a form post, text/plain and a foreign Origin', async () => {
    const { user, token } = await createUser(t.deps);
    const { chat } = await createChat(t.deps, user.id);
    const mutations = [
      ...registeredRoutes(t.app)
        .filter((r) => r.method !== 'GET' && !r.url.startsWith('/trpc'))
        .map((r) => ({ method: r.method, url: concrete(r.url, chat.id) })),
      ...trpcProcedures()
        .filter((p) => p.type === 'mutation')
        .map((p) => ({ method: 'POST', url: `/trpc/${p.path}` })),
    ];
    const attacks: Record<string, Record<string, string>> = {
      'form post': { 'content-type': 'application/x-www-form-urlencoded' },
      'text/plain': { 'content-type': 'text/plain' },
      'foreign Origin': { 'content-type': 'application/json', origin: 'https://evil.example' },
      'cross-site fetch': { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
    };
    for (const m of mutations) {
      for (const [name, headers] of Object.entries(attacks)) {
        const res = await t.app.inject({
          method: m.method as InjectOptions['method'],
          url: m.url,
          headers,
          cookies: { token },
          payload: headers['content-type'] === 'application/json' ? '{}' : 'name=x',
        });
        assert.equal(res.statusCode, 403, `${name} to ${m.method} ${m.url} answered ${res.statusCode}`);
      }
    }
    // The session survived all of that: nothing was logged out, renamed or deleted.
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(me.statusCode, 200);
  });

  test('security headers on HTML, API, tRPC, image and error responses', async () => {
    const { user, token } = await createUser(t.deps);
    const image = await storeImage(t.deps, user.id);
    const responses = {
      html: await t.app.inject({ method: 'GET', url: '/chat' }),
      api: await t.app.inject({
        method: 'GET',
        url: '/api/history/get-init-info',
        headers: { authorization: `Bearer ${token}` },
      }),
      trpc: await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { authorization: `Bearer ${token}` } }),
      image: await t.app.inject({
        method: 'GET',
        url: `/api/images/${image.id}`,
        headers: { authorization: `Bearer ${token}` },
      }),
      error: await t.app.inject({ method: 'GET', url: '/api/images/nope' }),
    };
    assert.equal(responses.image.statusCode, 200);
    for (const [kind, res] of Object.entries(responses)) {
      const h = res.headers;
      assert.match(String(h['content-security-policy']), /default-src 'self'/, `${kind}: CSP`);
      assert.match(String(h['content-security-policy']), /frame-ancestors 'none'/, `${kind}: no framing`);
      assert.equal(h['x-content-type-options'], 'nosniff', `${kind}: nosniff`);
      assert.equal(h['referrer-policy'], 'no-referrer', `${kind}: referrer`);
      assert.ok(h['x-frame-options'], `${kind}: X-Frame-Options`);
    }
    assert.match(String(responses.image.headers['cache-control']), /no-store/, 'patient images are never cached');
    assert.match(String(responses.image.headers['content-type']), /^image\//);
  });
});

describe('login lockout and its expiry (window shortened to ~2 s by configuration)', () => {
  let locking: TestApp;
  beforeAll(async () => {
    locking = await createTestApp({
      env: {
        ARGON2_MEMORY_KIB: '1024',
        ARGON2_TIME_COST: '1',
        LOGIN_FAILURES_PER_ACCOUNT: '3',
        LOGIN_FAILURE_WINDOW_MINUTES: '0.035',
      },
    });
  });
  afterAll(() => locking.close());

  test('after 3 failures even the right password is refused; after the window it works again', async () => {
    const { user, password } = await createUser(locking.deps);
    const login = (pw: string) =>
      locking.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: { email: user.email, password: pw },
      });
    for (let i = 0; i < 3; i++) assert.equal((await login('wrong password!')).statusCode, 401);
    const locked = await login(password);
    assert.equal(locked.statusCode, 429);
    await new Promise((r) => setTimeout(r, 2300));
    assert.equal((await login(password)).statusCode, 200, 'the lockout expired');
  });
});

describe('account enumeration by timing (real argon2 cost)', () => {
  let known: string;
  beforeAll(async () => {
    // Production hashing cost (the defaults): the shared app at the top of the file.
    known = (await createUser(t.deps, { name: testPatientName('Clinician') })).user.email;
  });

  for (const [name, url, body] of [
    ['login', '/api/auth/login', (email: string) => ({ email, password: 'not the password 123' })],
    ['forgot-password', '/api/auth/forgot-password', (email: string) => ({ email })],
  ] as const) {
    test(`${name}: identical bodies and a median time difference under 5 ms over 200 requests each`, async () => {
      const times = { known: [] as number[], unknown: [] as number[] };
      const bodies = new Set<string>();
      // Interleaved, so drift in machine load hits both series alike; 5 warm-up rounds first.
      for (let i = -5; i < 200; i++) {
        for (const kind of (i % 2 ? ['known', 'unknown'] : ['unknown', 'known']) as ('known' | 'unknown')[]) {
          const email = kind === 'known' ? known : `nobody-${i}-${Math.random().toString(36).slice(2)}@example.org`;
          const t0 = process.hrtime.bigint();
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { 'content-type': 'application/json' },
            payload: body(email),
          });
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          if (i < 0) continue;
          times[kind].push(ms);
          bodies.add(`${res.statusCode} ${res.body}`);
        }
      }
      const diff = Math.abs(median(times.known) - median(times.unknown));
      console.log(
        `${name}: median known ${median(times.known).toFixed(2)} ms, unknown ${median(times.unknown).toFixed(2)} ms, |diff| ${diff.toFixed(2)} ms (n=200 each)`,
      );
      assert.equal(bodies.size, 1, `one answer for both: ${[...bodies].join(' | ')}`);
      assert.ok(diff < 5, `median difference ${diff.toFixed(2)} ms`);
    });
  }
});
