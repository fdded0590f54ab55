import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { outboxDir } from '@contracts/config/server-config.js';
import { passwordHasherFor } from '../../server/src/lib/password.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { FAST_HASH_ENV, PASSWORD, randomIp, rest, signUpUser, uniqueEmail, type TCall } from './auth-helpers.js';

/** What an observer sees of an answer: status, body and the headers that are not per-request. */
function observable(r: TCall) {
  const headers = Object.keys(r.res.headers)
    .filter((h) => !['date', 'x-request-id', 'content-length'].includes(h))
    .sort();
  return { status: r.status, body: r.body, headers, setsCookie: 'set-cookie' in r.res.headers };
}

async function outboxCount(t: TestApp): Promise<number> {
  return (await readdir(outboxDir(t.deps.config)).catch(() => [])).length;
}

for (const backend of testBackends()) {
  describe(`account enumeration on ${backend}`, () => {
    let t: TestApp;
    let known: { email: string; id: string };
    beforeAll(async () => {
      t = await createTestApp({
        backend,
        env: { ...FAST_HASH_ENV, SIGNUPS_PER_IP_PER_HOUR: '5', SIGNUPS_PER_EMAIL_PER_HOUR: '3' },
      });
      known = await signUpUser(t.app);
    });
    afterAll(async () => {
      await t.close();
    });

    test('req 3: check-email answers identically for known and unknown emails', async () => {
      const a = await rest(t.app, 'POST', '/api/auth/check-email', { email: known.email });
      const b = await rest(t.app, 'POST', '/api/auth/check-email', { email: uniqueEmail('nobody') });
      assert.equal(a.status, 200);
      assert.deepEqual(observable(a), observable(b));
    });

    test('req 3: login answers identically for a wrong password and an unknown email', async () => {
      const a = await rest(
        t.app,
        'POST',
        '/api/auth/login',
        { email: known.email, password: 'not the password' },
        { ip: randomIp() },
      );
      const b = await rest(
        t.app,
        'POST',
        '/api/auth/login',
        { email: uniqueEmail('nobody'), password: 'not the password' },
        { ip: randomIp() },
      );
      assert.equal(a.status, 401);
      assert.deepEqual(observable(a), observable(b));
    });

    test('req 3: login with an unknown email spends one argon2 verification, like a known one', async () => {
      const hasher = passwordHasherFor(t.deps.config);
      const before1 = hasher.stats.verifies;
      await rest(
        t.app,
        'POST',
        '/api/auth/login',
        { email: known.email, password: 'not the password' },
        { ip: randomIp() },
      );
      const knownCost = hasher.stats.verifies - before1;
      const before2 = hasher.stats.verifies;
      await rest(
        t.app,
        'POST',
        '/api/auth/login',
        { email: uniqueEmail('nobody'), password: 'not the password' },
        { ip: randomIp() },
      );
      const unknownCost = hasher.stats.verifies - before2;
      assert.equal(knownCost, 1);
      assert.equal(unknownCost, 1, 'the unknown email is verified against a dummy hash with the same parameters');
    });

    test('req 3: forgot-password answers identically and mails only a real account', async () => {
      const before1 = await outboxCount(t);
      const a = await rest(t.app, 'POST', '/api/auth/forgot-password', { email: known.email }, { ip: randomIp() });
      const b = await rest(
        t.app,
        'POST',
        '/api/auth/forgot-password',
        { email: uniqueEmail('nobody') },
        { ip: randomIp() },
      );
      assert.equal(a.status, 200);
      assert.deepEqual(a.body, { success: true, message: 'Password reset link sent to your email!' });
      assert.deepEqual(observable(a), observable(b));
      for (let i = 0; i < 50 && (await outboxCount(t)) === before1; i++) await sleep(50);
      await sleep(200);
      assert.equal((await outboxCount(t)) - before1, 1);
    });

    test('req 3: signup of a taken email says so, but no faster than the signup limit', async () => {
      const ip = randomIp();
      const taken = await rest(
        t.app,
        'POST',
        '/api/auth/signup',
        { name: 'Dr Probe', email: known.email, password: PASSWORD },
        { ip },
      );
      assert.equal(taken.status, 409);
      assert.deepEqual(taken.body, {
        success: false,
        message: 'Signup failed. Email might already be in use.',
        code: 'CONFLICT',
      });
      assert.ok(!('set-cookie' in taken.res.headers));
      // Four more probes from the same IP use up SIGNUPS_PER_IP_PER_HOUR=5 ...
      for (let i = 0; i < 4; i++) {
        const r = await rest(
          t.app,
          'POST',
          '/api/auth/signup',
          { name: 'Dr Probe', email: uniqueEmail('probe'), password: PASSWORD },
          { ip },
        );
        assert.equal(r.status, 200);
      }
      // ... after which taken and free emails get the same refusal.
      const c = await rest(
        t.app,
        'POST',
        '/api/auth/signup',
        { name: 'Dr Probe', email: known.email, password: PASSWORD },
        { ip },
      );
      const d = await rest(
        t.app,
        'POST',
        '/api/auth/signup',
        { name: 'Dr Probe', email: uniqueEmail('free'), password: PASSWORD },
        { ip },
      );
      assert.equal(c.status, 429);
      assert.deepEqual(observable(c), observable(d));
      assert.equal(c.body.message, 'Too many sign-up attempts. Please try again later.');
    });

    test('req 3: one email cannot be probed more than SIGNUPS_PER_EMAIL_PER_HOUR times, from any IP', async () => {
      const target = await signUpUser(t.app);
      // signUpUser was attempt 1 for this email; two more are allowed.
      for (let i = 0; i < 2; i++) {
        assert.equal(
          (
            await rest(
              t.app,
              'POST',
              '/api/auth/signup',
              { name: 'Dr Probe', email: target.email, password: PASSWORD },
              { ip: randomIp() },
            )
          ).status,
          409,
        );
      }
      const r = await rest(
        t.app,
        'POST',
        '/api/auth/signup',
        { name: 'Dr Probe', email: target.email, password: PASSWORD },
        { ip: randomIp() },
      );
      assert.equal(r.status, 429);
    });
  });
}
