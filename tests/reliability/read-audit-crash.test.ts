import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { inArray } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { openDatabase, type Database } from '../../server/src/db/client.js';
import { auditLog } from '../../server/src/db/schema.js';
import { appendAuditRows, type TAuditRow } from '../../server/src/services/audit/record-audit.js';
import { readAuditStreamKey } from '../../server/src/services/audit/read-audit-stream.js';
import { verifyAuditChain } from '../../server/src/services/audit/verify-audit-chain.js';
import { createChat, createUser } from '../helpers/factories.js';
import { startStack, waitFor, type TStack } from '../helpers/fault-procs.js';
import { createPostgresDatabase, testConfig, uniqueSuffix } from '../helpers/test-config.js';

const run = promisify(execFile);
const READS = 200;

/**
 * Read-audit entries are written behind the request, at least once: killing the server with
 * SIGKILL right after its reads were answered loses none of their entries (the next server
 * process stores what was queued), none is stored twice, and the hash chain stays intact.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('read audit entries survive a server crash', () => {
  let pgdb: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let database: Database;
  let redis: Redis;
  const config = testConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' });
  const prefix = `ac${uniqueSuffix()}`;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const stacks: TStack[] = [];

  beforeAll(async () => {
    pgdb = await createPostgresDatabase();
    database = await openDatabase({ url: pgdb.url, pgliteDir: 'memory://' });
    redis = new Redis(redisUrl);
  });

  afterAll(async () => {
    await Promise.all(stacks.map((s) => s.close()));
    await redis?.del(readAuditStreamKey(prefix));
    redis?.disconnect();
    await database?.close();
    await pgdb?.drop();
  });

  const start = async () => {
    const stack = await startStack({
      redisUrl,
      databaseUrl: pgdb.url,
      env: { QUEUE_PREFIX: prefix, LOG_LEVEL: 'warn' },
    });
    stacks.push(stack);
    return stack;
  };

  test('SIGKILL after the reads were answered: every entry appears once, audit:verify passes', async () => {
    const deps = { db: database.db, images: null as never, config };
    const { user, token } = await createUser(deps);
    for (let i = 0; i < 3; i++) await createChat(deps, user.id, { title: `Chat ${i}` });
    const first = await start();

    const url = `${first.url}/trpc/history.list?input=${encodeURIComponent('{"limit":30}')}`;
    const answered = await Promise.all(
      Array.from({ length: READS }, async () => {
        const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        return { status: res.status, requestId: res.headers.get('x-request-id') ?? '' };
      }),
    );
    assert.ok(answered.every((r) => r.status === 200 && r.requestId));
    const queuedAtKill = await redis.xlen(readAuditStreamKey(prefix));
    await first.server.stop('SIGKILL');
    console.log(`read-audit crash test: ${queuedAtKill} of ${READS} entries still queued when the server was killed`);

    const requestIds = answered.map((r) => r.requestId);
    const stored = () =>
      database.db
        .select({ requestId: auditLog.requestId, action: auditLog.action })
        .from(auditLog)
        .where(inArray(auditLog.requestId, requestIds));
    await start();
    const rows = await waitFor(
      'every read to be audited',
      async () => {
        const r = await stored();
        return r.length >= READS ? r : null;
      },
      60_000,
      250,
    );
    assert.equal(rows.length, READS, 'none stored twice');
    assert.deepEqual(new Set(rows.map((r) => r.requestId)), new Set(requestIds), 'none lost');
    assert.ok(rows.every((r) => r.action === 'history.list'));

    const verify = await run(process.execPath, ['--import', 'tsx', 'scripts/verify-audit.ts'], {
      env: { ...process.env, DATABASE_URL: pgdb.url, LOG_LEVEL: 'silent' },
    });
    assert.match(verify.stdout, /audit log intact/);
  });

  test('a redelivered batch is stored once and the chain stays unbroken', async () => {
    const row = (action: string): TAuditRow => ({
      entryId: randomUUID(),
      at: new Date(),
      actorUserId: null,
      action,
      objectType: null,
      objectId: null,
      outcome: 'success',
      ip: null,
      requestId: `redelivery-${uniqueSuffix()}`,
      details: null,
    });
    const batch = [row('test.redelivered'), row('test.redelivered')];
    await appendAuditRows({ db: database.db, rows: batch });
    // The same entries again (a writer died before acknowledging), one new, and a duplicate within the batch.
    const later = row('test.redelivered');
    await appendAuditRows({ db: database.db, rows: [...batch, later, later] });
    const ids = [...batch, later].map((r) => r.requestId ?? '');
    assert.equal((await database.db.select().from(auditLog).where(inArray(auditLog.requestId, ids))).length, 3);
    assert.equal((await verifyAuditChain({ db: database.db })).ok, true);
  });
});
