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
import { startShadowProcess } from './jobs/start-shadow-process.js';
import { createModelImportProcessor } from './jobs/process-model-import.js';
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
  const deps: WorkerDeps = { config, redis, images: await createImageStore(config), resultQueue, log };
  // One session per model the jobs name (the live one, and the one before it while a promotion or
  // rollback settles), bounded (issue 47); shadows are the shadow process's.
  const models = createModelCache(registryDirs(config), 2);
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
  // Shadow models run in a child process of their own at the lowest CPU priority (issue 47).
  const shadows = startShadowProcess(log);
  // Models a site admin uploads (issue 47): checked one at a time, beside the analyses.
  const importWorker = new Worker(QueueName.ModelImport, createModelImportProcessor({ config }), {
    connection: createRedis(config.REDIS_URL),
    prefix: config.QUEUE_PREFIX,
    concurrency: 1,
    lockDuration: config.WORKER_LOCK_MS,
    stalledInterval: config.WORKER_STALLED_MS,
  });
  importWorker.on('error', (err) => log.warn({ err }, 'model import worker connection error'));
  importWorker.on('failed', (job, err) => log.warn({ err, jobId: job?.id }, 'model import job failed'));

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
    await shadows.stop();
    await importWorker.close();
    await models.close();
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
