import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../server/src/db/schema.js';
import { loadConfig } from '@contracts/config/server-config.js';
import { createPasswordHasher, paramsOf, passwordHasherFor } from '../../server/src/lib/password.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { rest, signUpUser, uniqueEmail } from './auth-helpers.js';

const FAST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** The algorithm and m/t/p of a PHC-format argon2 hash (the library orders them its own way). */
function phc(hash: string | undefined): { alg: string; m: number; t: number; p: number } {
  const [, alg = '', , params = ''] = (hash ?? '').split('$');
  const kv = Object.fromEntries(params.split(',').map((x) => x.split('=') as [string, string]));
  return { alg, m: Number(kv.m), t: Number(kv.t), p: Number(kv.p) };
}

describe('password hashing', () => {
  test('req 1: the default parameters are argon2id at m=19 MiB, t=2, p=1 or stronger', async () => {
    const config = loadConfig({});
    const p = paramsOf(config);
    assert.ok(p.memoryCost >= 19_456 && p.timeCost >= 2 && p.parallelism >= 1, JSON.stringify(p));
    const hash = await passwordHasherFor(config).hash('a password of ours');
    assert.deepEqual(phc(hash), { alg: 'argon2id', m: 19_456, t: 2, p: 1 });
  });

  test('req 1: production refuses parameters below the minimum', () => {
    const weak = loadConfig({ NODE_ENV: 'production', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' });
    assert.throws(() => passwordHasherFor(weak), /below the minimum/);
  });

  test('req 1: hashing runs with bounded concurrency', async () => {
    const hasher = createPasswordHasher(FAST, 2);
    const stored = await hasher.hash('first password');
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => hasher.hash(`password number ${i}`)),
      ...Array.from({ length: 8 }, () => hasher.verify(stored, 'first password')),
    ]);
    assert.equal(hasher.stats.peakInFlight, 2, 'never more than the limit at once, and the limit is used');
    assert.equal(hasher.stats.inFlight, 0);
  });

  test('verification of a malformed stored hash is a plain mismatch', async () => {
    const hasher = createPasswordHasher(FAST, 1);
    assert.equal(await hasher.verify('not-a-hash', 'whatever password'), false);
    assert.equal(hasher.needsRehash('$2b$10$bcrypt-looking'), true);
  });
});

for (const backend of testBackends()) {
  describe(`password handling on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      // Slightly stronger than the hashes made below with FAST, so those need a rehash.
      t = await createTestApp({
        backend,
        env: { ARGON2_MEMORY_KIB: '2048', ARGON2_TIME_COST: '1', ARGON2_CONCURRENCY: '1' },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    test('req 1: passwords up to 128 characters work, and are not truncated', async () => {
      const long = 'p'.repeat(127) + 'Z';
      const u = await signUpUser(t.app, { password: long });
      const [row] = await t.deps.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, u.id));
      assert.deepEqual(phc(row?.hash), { alg: 'argon2id', m: 2048, t: 1, p: 1 });
      assert.equal((await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: long })).status, 200);
      const lastCharDiffers = 'p'.repeat(127) + 'Y';
      assert.equal(
        (await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: lastCharDiffers })).status,
        401,
      );
      const tooLong = await rest(t.app, 'POST', '/api/auth/signup', {
        name: 'Dr Long',
        email: uniqueEmail(),
        password: 'p'.repeat(129),
      });
      assert.equal(tooLong.status, 400);
      assert.equal(tooLong.body.message, 'Password must be at most 128 characters');
    });

    test('req 1: a login rehashes a password whose hash has old parameters', async () => {
      const email = uniqueEmail('legacy');
      const old = await createPasswordHasher(FAST, 1).hash('legacy password');
      const [created] = await t.deps.db
        .insert(users)
        .values({ name: 'Dr Legacy', email, passwordHash: old })
        .returning({ id: users.id });
      const r = await rest(t.app, 'POST', '/api/auth/login', { email, password: 'legacy password' });
      assert.equal(r.status, 200);
      const [row] = await t.deps.db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(eq(users.id, created?.id ?? ''));
      assert.notEqual(row?.hash, old);
      assert.deepEqual(phc(row?.hash), { alg: 'argon2id', m: 2048, t: 1, p: 1 });
      assert.equal((await rest(t.app, 'POST', '/api/auth/login', { email, password: 'legacy password' })).status, 200);
    });

    test('req 1: a burst of logins never runs more hashes at once than ARGON2_CONCURRENCY', async () => {
      const u = await signUpUser(t.app);
      const hasher = passwordHasherFor(t.deps.config);
      hasher.stats.peakInFlight = 0;
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: u.password }),
        ),
      );
      assert.deepEqual(
        results.map((r) => r.status),
        Array(8).fill(200),
      );
      assert.equal(hasher.stats.peakInFlight, 1);
    });
  });
}
