import { resolve } from 'node:path';
import { Queue } from 'bullmq';
import pino from 'pino';
import { openDatabase } from './db/client.js';
import type { AppDeps } from './deps.js';
import type { TConfig } from './env.js';
import { loggerOptions } from './lib/logger.js';
import { createRedis } from './lib/redis.js';
import { QueueName } from './queue/queues.js';
import { createImageStore } from './storage/create-image-store.js';

export interface OpenedDeps {
  deps: AppDeps;
  pingDb: () => Promise<void>;
  close: () => Promise<void>;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Opens database (migrating it), Redis, the analysis queue and image storage. */
export async function openDeps(config: TConfig, log = pino(loggerOptions(config))): Promise<OpenedDeps> {
  const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: pgliteDirOf(config) });
  const redis = createRedis(config.REDIS_URL ?? DEFAULT_REDIS_URL);
  const analysisQueue = new Queue(QueueName.Analysis, { connection: redis, prefix: config.QUEUE_PREFIX });
  analysisQueue.on('error', () => undefined);
  const images = await createImageStore(config);
  const deps: AppDeps = { config, db: database.db, redis, analysisQueue, images, log };
  return {
    deps,
    pingDb: database.ping,
    close: async () => {
      await analysisQueue.close().catch(() => undefined);
      redis.disconnect();
      await database.close();
    },
  };
}

export function pgliteDirOf(config: TConfig): string {
  return process.env.PGLITE_DIR ?? resolve(config.DATA_DIR, 'pg');
}
