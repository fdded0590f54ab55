import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { HASHER_BUSY_MESSAGE, passwordHasherFor } from '../../server/src/lib/password.js';
import { LIMIT_MESSAGES } from '../../server/src/services/auth/auth-limits.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FAST_HASH_ENV, PASSWORD, randomIp, rest, signUpUser, uniqueEmail } from '../auth/auth-helpers.js';

/**
 * Issue 23 N6: one address could take most of the machine's login capacity, and concurrent
 * correct logins were refused because attempts in flight counted as failures.
 */
const FAILURES_PER_ACCOUNT = 2;
const ATTEMPTS_PER_IP = 4;

describe('login capacity (issue 23 N6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ...FAST_HASH_ENV,
        RATE_LIMIT_DISABLED: 'true',
        LOGIN_FAILURES_PER_ACCOUNT: String(FAILURES_PER_ACCOUNT),
        AUTH_ATTEMPTS_PER_IP_PER_MINUTE: String(ATTEMPTS_PER_IP),
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const login = (email: string, password: string, ip = randomIp()) =>
    rest(t.app, 'POST', '/api/auth/login', { email, password }, { ip });

  test('concurrent correct logins for one account all succeed, past the failure limit', async () => {
    const u = await signUpUser(t.app);
    const answers = await Promise.all(Array.from({ length: FAILURES_PER_ACCOUNT * 3 }, () => login(u.email, PASSWORD)));
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
      JSON.stringify(answers.map((a) => a.body.message)),
    );
  });

  test('login, signup and reset attempts share a tight per-address limit, successful or not', async () => {
    const u = await signUpUser(t.app);
    const ip = randomIp();
    for (let i = 0; i < ATTEMPTS_PER_IP - 1; i++) assert.equal((await login(u.email, PASSWORD, ip)).status, 200);
    assert.equal(
      (await rest(t.app, 'POST', '/api/auth/forgot-password', { email: u.email }, { ip })).status,
      200,
      'the last attempt of the minute',
    );
    const expected = { success: false, message: LIMIT_MESSAGES.attempts('1 minute'), code: 'TOO_MANY_REQUESTS' };
    const refused = await login(u.email, PASSWORD, ip);
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.body, expected);
    const signup = await rest(
      t.app,
      'POST',
      '/api/auth/signup',
      { name: 'Dr Flood', email: uniqueEmail('flood'), password: PASSWORD },
      { ip },
    );
    assert.deepEqual([signup.status, signup.body], [429, expected]);
    // Another address, and the account itself, are untouched.
    assert.equal((await login(u.email, PASSWORD)).status, 200);
  });

  test('failures still lock the account, from any address', async () => {
    const u = await signUpUser(t.app);
    for (let i = 0; i < FAILURES_PER_ACCOUNT; i++) assert.equal((await login(u.email, 'wrong password 1')).status, 401);
    assert.equal((await login(u.email, PASSWORD)).status, 429);
  });
});

describe('a full argon2 queue is not a failed login (issue 23 N6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        // One slot, no queue, and a hash slow enough to hold the slot while the logins arrive.
        ARGON2_MEMORY_KIB: String(64 * 1024),
        ARGON2_TIME_COST: '12',
        ARGON2_CONCURRENCY: '1',
        ARGON2_QUEUE_LIMIT: '0',
        LOGIN_FAILURES_PER_ACCOUNT: '1',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  test('logins refused with 429 while the hasher is full leave the account unlocked', async () => {
    const u = await signUpUser(t.app);
    const hold = passwordHasherFor(t.deps.config).hash('holds the only slot');
    const busy = [];
    for (let i = 0; i < 3; i++)
      busy.push(
        await rest(
          t.app,
          'POST',
          '/api/auth/login',
          { email: u.email, password: 'wrong password 1' },
          { ip: randomIp() },
        ),
      );
    await hold;
    assert.deepEqual(
      busy.map((b) => [b.status, b.body.message]),
      busy.map(() => [429, HASHER_BUSY_MESSAGE]),
    );
    // Had the refusals counted, one failure is the limit: the right password would be refused.
    assert.equal(
      (await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD }, { ip: randomIp() })).status,
      200,
    );
  });
});
