import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FAST_HASH_ENV, randomIp, rest, signUpUser } from '../auth/auth-helpers.js';

/**
 * Issue 23 Info: users behind one hospital NAT shared one rate-limit budget, even when signed
 * in. The global limiter now keys a signed-in request by its account; a token that resolves to
 * nobody still counts against its address.
 */
const PER_MINUTE = 5;

describe('the global limiter keys signed-in requests by account (issue 23)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...FAST_HASH_ENV, RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) } });
  });
  afterAll(async () => {
    await t.close();
  });

  const me = (ip: string, bearer?: string) =>
    rest(t.app, 'GET', '/api/auth/me', undefined, { ip, ...(bearer ? { bearer } : {}) });

  test('one user spending its budget leaves a colleague behind the same address untouched', async () => {
    const a = await signUpUser(t.app);
    const b = await signUpUser(t.app);
    const nat = randomIp();
    for (let i = 0; i < PER_MINUTE; i++) assert.equal((await me(nat, a.token)).status, 200, `request ${i}`);
    assert.equal((await me(nat, a.token)).status, 429, 'the account is over its budget');
    assert.equal((await me(randomIp(), a.token)).status, 429, 'from any address');
    assert.equal((await me(nat, b.token)).status, 200, 'a colleague behind the same NAT');
    assert.equal((await me(nat)).status, 401, 'an anonymous request from that address is not refused either');
  });

  test('a forged token counts against its address', async () => {
    // A public route, so the request reaches the limiter (a protected one answers 401 before it).
    const check = (ip: string, bearer?: string) =>
      rest(
        t.app,
        'POST',
        '/api/auth/check-email',
        { email: 'someone@example.org' },
        { ip, ...(bearer ? { bearer } : {}) },
      );
    const ip = randomIp();
    for (let i = 0; i < PER_MINUTE; i++) assert.equal((await check(ip, `forged-${i}`)).status, 200, `request ${i}`);
    assert.equal((await check(ip, 'forged-again')).status, 429);
    assert.equal((await check(ip)).status, 429, 'the address is over its budget');
    const u = await signUpUser(t.app);
    assert.equal((await check(ip, u.token)).status, 200, 'a real session from that address has its own budget');
  });

  test('requests the auth or CSRF check refuses are counted too, and get the 429 (issue 36 S4)', async () => {
    const ip = randomIp();
    // A protected REST route with random bearer tokens: each is refused (401) before the route runs.
    for (let i = 0; i < PER_MINUTE; i++)
      assert.equal((await me(ip, `random-${i}-${Math.random()}`)).status, 401, `request ${i}`);
    const over = await me(ip, 'random-again');
    assert.equal(over.status, 429, 'the address is over its budget');
    assert.equal(over.body.code, 'TOO_MANY_REQUESTS');

    // A cookie-authenticated cross-site post, refused by the CSRF check (403), also spends the budget.
    const u = await signUpUser(t.app);
    const csrfIp = randomIp();
    const post = () =>
      rest(
        t.app,
        'POST',
        '/api/settings/logout',
        {},
        {
          ip: csrfIp,
          cookie: u.token,
          headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        },
      );
    for (let i = 0; i < PER_MINUTE; i++) assert.equal((await post()).status, 403, `request ${i}`);
    assert.equal((await post()).status, 429);
  });
});
