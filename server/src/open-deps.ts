import { resolve } from 'node:path';
import { Queue } from 'bullmq';
import pino from 'pino';
import { openDatabase, type DatabaseOptions } from './db/client.js';
import type { AppDeps } from './deps.js';
import type { TConfig } from '@contracts/config/server-config.js';
import { loggerOptions } from '@common/logger.js';
import { createRedis } from '@common/redis.js';
import { QueueName } from '@contracts/queues.js';
import { createImageStore } from '@common/storage/create-image-store.js';

export interface OpenedDeps {
  deps: AppDeps;
  pingDb: () => Promise<void>;
  close: () => Promise<void>;
}

/** Opens database (migrating it), Redis, the analysis queue and image storage. */
export async function openDeps(
  config: TConfig,
  log = pino(loggerOptions(config)),
  dbOptions: Pick<DatabaseOptions, 'pgliteSnapshot'> = {},
): Promise<OpenedDeps> {
  const database = await openDatabase({ ...dbOptions, url: config.DATABASE_URL, pgliteDir: pgliteDirOf(config) });
  const redis = createRedis(config.REDIS_URL);
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

export function pgliteDirOf(config: Pick<TConfig, 'PGLITE_DIR' | 'DATA_DIR'>): string {
  return config.PGLITE_DIR ?? resolve(config.DATA_DIR, 'pg');
}
