import { hostname } from 'node:os';
import { Queue, Worker } from 'bullmq';
import pino from 'pino';
import { loggerOptions } from '@common/logger.js';
import { createRedis } from '@common/redis.js';
import { createImageStore } from '@common/storage/create-image-store.js';
import { loadWorkerConfig } from '@contracts/config/worker-config.js';
import { QueueName } from '@contracts/queues.js';
import { setIntraOpThreads } from './pipeline/infer.js';
import { createAnalysisProcessor } from './jobs/process-analysis.js';
import { createShadowProcessor } from './jobs/process-shadow.js';
import { createModelCache } from './models/model-cache.js';
import { registryDirs } from './models/registry-dirs.js';
import type { WorkerDeps } from './worker-deps.js';

const HEARTBEAT_MS = 10_000;

/**
 * The analysis worker process. Liveness: a Redis key per worker with a short TTL, refreshed while
 * the event loop is healthy (GET it, or count `<prefix>:workers:*`). SIGTERM lets the current
 * job finish before exiting.
 */
async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const log = pino({ ...loggerOptions(config), name: 'worker' });
  setIntraOpThreads(config.ORT_INTRA_OP_THREADS);
  const redis = createRedis(config.REDIS_URL);
  const resultQueue = new Queue(QueueName.AnalysisResult, { connection: redis, prefix: config.QUEUE_PREFIX });
  resultQueue.on('error', () => undefined);
  const shadowResultQueue = new Queue(QueueName.ShadowResult, { connection: redis, prefix: config.QUEUE_PREFIX });
  shadowResultQueue.on('error', () => undefined);
  const deps: WorkerDeps = { config, redis, images: await createImageStore(config), resultQueue, log };
  // One session per model the jobs name (the live one and the shadows), bounded (issue 47).
  const models = createModelCache(registryDirs(config), config.MODEL_MAX_SHADOWS + 1);
  const worker = new Worker(QueueName.Analysis, createAnalysisProcessor(deps, { models }), {
    connection: createRedis(config.REDIS_URL),
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    // A job whose worker died is handed to another after this long without a lock renewal.
    lockDuration: config.WORKER_LOCK_MS,
    stalledInterval: config.WORKER_STALLED_MS,
    maxStalledCount: 2,
  });
  worker.on('error', (err) => log.warn({ err }, 'worker connection error'));
  worker.on('failed', (job, err) => log.warn({ err, jobId: job?.id }, 'analysis job failed'));
  // Shadow runs have their own queue, one at a time, so a live analysis never waits behind one.
  const shadowWorker = new Worker(
    QueueName.AnalysisShadow,
    createShadowProcessor({ ...deps, shadowResultQueue, models }),
    {
      connection: createRedis(config.REDIS_URL),
      prefix: config.QUEUE_PREFIX,
      concurrency: 1,
      lockDuration: config.WORKER_LOCK_MS,
      stalledInterval: config.WORKER_STALLED_MS,
    },
  );
  shadowWorker.on('error', (err) => log.warn({ err }, 'shadow worker connection error'));
  shadowWorker.on('failed', (job, err) => log.warn({ err, jobId: job?.id }, 'shadow job failed'));

  const id = `${hostname()}-${process.pid}`;
  const beat = () =>
    redis
      .set(`${config.QUEUE_PREFIX}:workers:${id}`, new Date().toISOString(), 'PX', HEARTBEAT_MS * 3)
      .catch(() => undefined);
  void beat();
  const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'worker finishing current job, then exiting');
    clearInterval(heartbeat);
    await worker.close();
    await shadowWorker.close();
    await models.close();
    await shadowResultQueue.close().catch(() => undefined);
    await redis.del(`${config.QUEUE_PREFIX}:workers:${id}`).catch(() => undefined);
    await resultQueue.close().catch(() => undefined);
    redis.disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  log.info({ queue: QueueName.Analysis }, 'worker ready');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
