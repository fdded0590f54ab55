import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/src/db/client.js';
import { sessions } from '../../server/src/db/schema.js';
import { hashToken } from '../../server/src/lib/tokens.js';
import { createSessionToken, createUser } from '../helpers/factories.js';
import { startStack, type TStack } from '../helpers/fault-procs.js';
import { createPostgresDatabase, testConfig, uniqueSuffix } from '../helpers/test-config.js';
import { FAST_HASH_ENV } from './auth-helpers.js';

/**
 * The in-process session cache across two server processes sharing PostgreSQL and Redis: a
 * session one process has cached ends there as soon as the other process ends it (logout,
 * password change, account deletion), through the Redis pub/sub announcement.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('session cache across two server processes', () => {
  let pgdb: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let database: Database;
  let a: TStack;
  let b: TStack;
  const config = testConfig(FAST_HASH_ENV);
  const deps = () => ({ db: database.db, images: null as never, config });

  beforeAll(async () => {
    pgdb = await createPostgresDatabase();
    database = await openDatabase({ url: pgdb.url, pgliteDir: 'memory://' });
    // One deployment: the same Redis and the same QUEUE_PREFIX (the announcement channel's namespace).
    const env = { ...FAST_HASH_ENV, QUEUE_PREFIX: `sc${uniqueSuffix()}`, LOG_LEVEL: 'warn' };
    const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    [a, b] = await Promise.all([
      startStack({ redisUrl, databaseUrl: pgdb.url, env }),
      startStack({ redisUrl, databaseUrl: pgdb.url, env }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database?.close();
    await pgdb?.drop();
  });

  /** The status of a session-authenticated read on one process. */
  const read = async (stack: TStack, token: string) =>
    (
      await fetch(`${stack.url}/trpc/history.list?input=${encodeURIComponent('{"limit":5}')}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).status;
  const call = async (stack: TStack, method: string, path: string, token: string, body?: object) =>
    (
      await fetch(`${stack.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).status;

  test('the cache is real: a revocation nobody announces is not seen for a few seconds', async () => {
    const { token } = await createUser(deps());
    assert.equal(await read(b, token), 200);
    await database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.tokenHash, hashToken(token)));
    // What the announcements below protect against: without one, B still answers from its cache.
    assert.equal(await read(b, token), 200);
    assert.equal(await read(a, token), 401, 'a process that never cached it reads the database');
  });

  test('logout on one process: the other refuses the session at once', async () => {
    const { token } = await createUser(deps());
    assert.equal(await read(a, token), 200);
    assert.equal(await read(b, token), 200);
    assert.equal(await call(a, 'POST', '/api/settings/logout', token), 200);
    assert.equal(await read(b, token), 401);
    assert.equal(await read(a, token), 401);
  });

  test("a password change on one process ends the user's other sessions on the other", async () => {
    const u = await createUser(deps());
    const other = await createSessionToken(deps(), u.user.id);
    assert.equal(await read(b, other), 200);
    assert.equal(await read(b, u.token), 200);
    const status = await call(a, 'PUT', '/api/settings/change-password', u.token, {
      current_password: u.password,
      new_password: 'a different passphrase',
      confirm_password: 'a different passphrase',
    });
    assert.equal(status, 200);
    assert.equal(await read(b, other), 401);
    assert.equal(await read(b, u.token), 200, 'the session that changed the password stays');
  });

  test('account deletion on one process: the other refuses its sessions at once', async () => {
    const u = await createUser(deps());
    assert.equal(await read(b, u.token), 200);
    assert.equal(
      await call(a, 'POST', '/api/settings/delete-account', u.token, { confirm_delete: true, password: u.password }),
      200,
    );
    assert.equal(await read(b, u.token), 401);
  });
});
