import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type pg from 'pg';
import { startPrivateRedis } from '../../scripts/lib/private-redis.js';
import { openDatabase } from '../../server/src/db/client.js';
import { QueueName } from '@contracts/queues.js';
import { createUser } from '../helpers/factories.js';
import { sqlClient, startStack, type TStack } from '../helpers/fault-procs.js';
import { createPostgresDatabase, testConfig } from '../helpers/test-config.js';

export interface TFaultWorld {
  stack: TStack;
  redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  redisDir: string;
  sql: pg.Pool;
  queue: Queue;
  token: string;
  restartRedis(gapMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A server process on its own PostgreSQL database and its own redis-server (AOF on), plus a
 * signed-in user. databaseUrl lets a test put a cuttable proxy in front of PostgreSQL.
 */
export async function createFaultWorld(
  opts: { proxyDbUrl?: (url: string) => string; env?: Record<string, string> } = {},
): Promise<TFaultWorld> {
  const pgdb = await createPostgresDatabase();
  const redisDir = mkdtempSync(join(tmpdir(), 'cxr-redis-'));
  let redis = await startPrivateRedis(redisDir);
  const stack = await startStack({
    redisUrl: redis.url,
    databaseUrl: opts.proxyDbUrl?.(pgdb.url) ?? pgdb.url,
    env: opts.env,
  });
  const database = await openDatabase({ url: pgdb.url, pgliteDir: 'memory://' });
  const { token } = await createUser({
    db: database.db,
    images: null as never,
    config: testConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }),
  });
  await database.close();
  const queue = new Queue(QueueName.Analysis, {
    connection: { url: redis.url, maxRetriesPerRequest: null },
    prefix: String(stack.env.QUEUE_PREFIX),
  });
  queue.on('error', () => undefined);
  const sql = sqlClient(pgdb.url);
  return {
    stack,
    redisDir,
    sql,
    queue,
    token,
    get redis() {
      return redis;
    },
    restartRedis: async (gapMs = 500) => {
      await redis.stop();
      await new Promise((r) => setTimeout(r, gapMs));
      redis = await startPrivateRedis(redisDir, redis.port);
    },
    close: async () => {
      await queue.close().catch(() => undefined);
      await stack.close();
      await sql.end();
      await redis.stop();
      await pgdb.drop();
      await rm(redisDir, { recursive: true, force: true });
    },
  };
}
