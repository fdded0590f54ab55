import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { FAST_HASH_ENV, PASSWORD, randomIp, rest, signUpUser, uniqueEmail } from './auth-helpers.js';

const LOCKED = 'Too many failed login attempts. Please try again in 15 minutes.';

for (const backend of testBackends()) {
  describe(`security rate limits on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        backend,
        env: {
          ...FAST_HASH_ENV,
          // The global limiter is off; the security limits below must stay on regardless.
          RATE_LIMIT_DISABLED: 'true',
          LOGIN_FAILURES_PER_IP: '15',
          RESET_REQUESTS_PER_EMAIL_PER_HOUR: '3',
          RESET_REQUESTS_PER_IP_PER_HOUR: '6',
        },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    const login = (email: string, password: string, ip = randomIp()) =>
      rest(t.app, 'POST', '/api/auth/login', { email, password }, { ip });

    test('req 4: after 10 failed logins an account answers 429 for 15 minutes, even to the right password', async () => {
      const u = await signUpUser(t.app);
      for (let i = 0; i < 10; i++) assert.equal((await login(u.email, 'wrong password')).status, 401);
      const locked = await login(u.email, PASSWORD);
      assert.equal(locked.status, 429);
      assert.deepEqual(locked.body, { success: false, message: LOCKED, code: 'TOO_MANY_REQUESTS' });
      const keys = await t.deps.redis.keys(`${t.deps.config.QUEUE_PREFIX}:authrl:login-account:*`);
      assert.ok(keys.length >= 1, 'the counter lives in Redis under this app prefix');
      const ttl = await t.deps.redis.pttl(keys[0] ?? '');
      assert.ok(ttl > 0 && ttl <= 15 * 60_000, `window is 15 minutes (ttl ${ttl})`);
    });

    test('req 4 / req 3: an unknown email locks exactly like a known one', async () => {
      const u = await signUpUser(t.app);
      const ghost = uniqueEmail('ghost');
      for (let i = 0; i < 10; i++) {
        await login(u.email, 'wrong password');
        await login(ghost, 'wrong password');
      }
      const a = await login(u.email, 'wrong password');
      const b = await login(ghost, 'wrong password');
      assert.equal(a.status, 429);
      assert.deepEqual([b.status, b.body], [a.status, a.body]);
    });

    test('req 4: a successful login clears the account counter', async () => {
      const u = await signUpUser(t.app);
      for (let i = 0; i < 9; i++) await login(u.email, 'wrong password');
      assert.equal((await login(u.email, PASSWORD)).status, 200);
      for (let i = 0; i < 9; i++) await login(u.email, 'wrong password');
      assert.equal((await login(u.email, PASSWORD)).status, 200);
    });

    test('req 4: failed logins are limited per IP across accounts', async () => {
      const u = await signUpUser(t.app);
      const ip = randomIp();
      for (let i = 0; i < 15; i++) assert.equal((await login(uniqueEmail('spray'), 'wrong password', ip)).status, 401);
      const fromThatIp = await login(u.email, PASSWORD, ip);
      assert.equal(fromThatIp.status, 429);
      assert.equal((await login(u.email, PASSWORD, randomIp())).status, 200, 'the account itself is not locked');
    });

    test('req 4: forgot-password is limited per email and per IP', async () => {
      const u = await signUpUser(t.app);
      for (let i = 0; i < 3; i++) {
        assert.equal(
          (await rest(t.app, 'POST', '/api/auth/forgot-password', { email: u.email }, { ip: randomIp() })).status,
          200,
        );
      }
      const perEmail = await rest(t.app, 'POST', '/api/auth/forgot-password', { email: u.email }, { ip: randomIp() });
      assert.equal(perEmail.status, 429);
      assert.equal(perEmail.body.message, 'Too many password reset requests. Please try again later.');
      const ip = randomIp();
      for (let i = 0; i < 6; i++) {
        assert.equal(
          (await rest(t.app, 'POST', '/api/auth/forgot-password', { email: uniqueEmail('f') }, { ip })).status,
          200,
        );
      }
      assert.equal(
        (await rest(t.app, 'POST', '/api/auth/forgot-password', { email: uniqueEmail('f') }, { ip })).status,
        429,
      );
      assert.equal(
        (await rest(t.app, 'POST', '/api/auth/forgot-password', { email: uniqueEmail('f') }, { ip: randomIp() }))
          .status,
        200,
      );
    });

    test('req 4: signup is limited per IP (default 20 an hour)', async () => {
      const ip = randomIp();
      for (let i = 0; i < 20; i++) {
        assert.equal(
          (
            await rest(
              t.app,
              'POST',
              '/api/auth/signup',
              { name: 'Dr Many', email: uniqueEmail('many'), password: PASSWORD },
              { ip },
            )
          ).status,
          200,
        );
      }
      const r = await rest(
        t.app,
        'POST',
        '/api/auth/signup',
        { name: 'Dr Many', email: uniqueEmail('many'), password: PASSWORD },
        { ip },
      );
      assert.equal(r.status, 429);
      assert.equal(r.body.message, 'Too many sign-up attempts. Please try again later.');
    });

    test('req 4: the counters are in Redis, shared by every server process', async () => {
      const second = await createTestApp({
        backend,
        env: { ...FAST_HASH_ENV, QUEUE_PREFIX: t.deps.config.QUEUE_PREFIX },
      });
      try {
        const ghost = uniqueEmail('shared');
        for (let i = 0; i < 5; i++) await login(ghost, 'wrong password');
        for (let i = 0; i < 5; i++) {
          await rest(
            second.app,
            'POST',
            '/api/auth/login',
            { email: ghost, password: 'wrong password' },
            { ip: randomIp() },
          );
        }
        assert.equal((await login(ghost, 'wrong password')).status, 429);
      } finally {
        await second.close();
      }
    });

    test('req 4: without Redis the limits fail closed (503), they are not skipped', async () => {
      const u = await signUpUser(t.app);
      t.deps.redis.disconnect();
      try {
        const r = await login(u.email, PASSWORD);
        assert.equal(r.status, 503);
        assert.equal(r.body.code, 'UNAVAILABLE');
      } finally {
        await t.deps.redis.connect().catch(() => undefined);
      }
    });
  });
}
