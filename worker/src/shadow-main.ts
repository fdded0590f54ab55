import { setPriority } from 'node:os';
import { Queue, Worker } from 'bullmq';
import pino from 'pino';
import { loggerOptions } from '@common/logger.js';
import { createRedis } from '@common/redis.js';
import { createImageStore } from '@common/storage/create-image-store.js';
import { loadWorkerConfig } from '@contracts/config/worker-config.js';
import { QueueName } from '@contracts/queues.js';
import { setIntraOpThreads } from './pipeline/infer.js';
import { createShadowProcessor } from './jobs/process-shadow.js';
import { createModelCache } from './models/model-cache.js';
import { registryDirs } from './models/registry-dirs.js';

/**
 * The shadow process (issue 47), started by the worker (jobs/start-shadow-process.ts): shadow
 * models run here, one study at a time, at the lowest CPU priority (SHADOW_NICE), so that the
 * operating system hands the CPU to a live analysis the moment one starts, even in the middle of
 * a shadow inference; and a shadow study does not start while live analyses run or wait
 * (jobs/process-shadow.ts). A separate process, not a thread: niceness belongs to a process on Linux's
 * scheduler as Node sets it, and onnxruntime's threads inherit it.
 */
async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const log = pino({ ...loggerOptions(config), name: 'worker-shadow' });
  try {
    setPriority(config.SHADOW_NICE);
  } catch (err) {
    log.warn({ err }, 'could not lower the shadow process priority');
  }
  setIntraOpThreads(config.ORT_INTRA_OP_THREADS);
  const redis = createRedis(config.REDIS_URL);
  const shadowResultQueue = new Queue(QueueName.ShadowResult, { connection: redis, prefix: config.QUEUE_PREFIX });
  shadowResultQueue.on('error', () => undefined);
  const models = createModelCache(registryDirs(config), config.MODEL_MAX_SHADOWS);
  const images = await createImageStore(config);
  // The live queue, read only to see whether live analyses are running or waiting.
  const liveQueue = new Queue(QueueName.Analysis, { connection: redis, prefix: config.QUEUE_PREFIX });
  liveQueue.on('error', () => undefined);
  const liveBusy = async () => {
    const n = await liveQueue.getJobCounts('active', 'waiting', 'prioritized');
    return (n.active ?? 0) + (n.waiting ?? 0) + (n.prioritized ?? 0) > 0;
  };
  const worker = new Worker(
    QueueName.AnalysisShadow,
    createShadowProcessor({ config, images, shadowResultQueue, models, liveBusy }),
    {
      connection: createRedis(config.REDIS_URL),
      prefix: config.QUEUE_PREFIX,
      concurrency: 1,
      lockDuration: config.WORKER_LOCK_MS,
      stalledInterval: config.WORKER_STALLED_MS,
    },
  );
  worker.on('error', (err) => log.warn({ err }, 'shadow worker connection error'));
  worker.on('failed', (job, err) => log.warn({ err, jobId: job?.id }, 'shadow job failed'));

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await worker.close();
    await models.close();
    await shadowResultQueue.close().catch(() => undefined);
    await liveQueue.close().catch(() => undefined);
    redis.disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  // The worker that started this process is gone: a shadow process never outlives it.
  process.on('disconnect', () => void shutdown());
  log.info({ queue: QueueName.AnalysisShadow, nice: config.SHADOW_NICE }, 'shadow worker ready');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
