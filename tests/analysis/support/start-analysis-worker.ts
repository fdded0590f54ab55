import { Queue, Worker } from 'bullmq';
import pino from 'pino';
import { QueueName } from '@contracts/queues.js';
import type { AppDeps } from '../../../server/src/deps.js';
import { createAnalysisProcessor } from '../../../worker/src/jobs/process-analysis.js';
import { createShadowProcessor } from '../../../worker/src/jobs/process-shadow.js';
import { createModelCache } from '../../../worker/src/models/model-cache.js';
import { registryDirs } from '../../../worker/src/models/registry-dirs.js';
import type { WorkerDeps } from '../../../worker/src/worker-deps.js';
import { MODEL_DIR, modelInstalled } from './fixtures.js';

/**
 * The shipped model when it is installed; otherwise the pipeline's tiny test model (a real ONNX
 * network with 18 findings) so that the whole flow still runs end to end.
 */
export const testModelDir = (): string => (modelInstalled() ? MODEL_DIR : 'tests/fixtures/tiny-model');

export interface TestAnalysisWorker {
  worker: Worker;
  resultQueue: Queue;
  /** The job handler itself, for tests that run a job a second time by hand. */
  processor: ReturnType<typeof createAnalysisProcessor>;
  close(): Promise<void>;
}

/**
 * The real worker's job handler in this process, on the test app's Redis and queue prefix, so an
 * upload goes through queue → pipeline → result queue → the app's finalizer as in production.
 * One job at a time, as a worker host runs by default.
 */
export function startAnalysisWorker(deps: AppDeps): TestAnalysisWorker {
  const resultQueue = new Queue(QueueName.AnalysisResult, { connection: deps.redis, prefix: deps.config.QUEUE_PREFIX });
  const workerDeps: WorkerDeps = {
    config: deps.config,
    redis: deps.redis,
    images: deps.images,
    resultQueue,
    log: pino({ level: 'silent' }),
  };
  const models = createModelCache(registryDirs(deps.config), deps.config.MODEL_MAX_SHADOWS + 1);
  const processor = createAnalysisProcessor(workerDeps, { models });
  const worker = new Worker(QueueName.Analysis, processor, {
    connection: deps.redis,
    prefix: deps.config.QUEUE_PREFIX,
    concurrency: 1,
  });
  // A job's failure is asserted through the analysis row; the worker's own error event would
  // otherwise be an unhandled 'error' emission.
  worker.on('error', () => undefined);
  // Shadow runs (issue 47) on their own queue, as the worker process runs them.
  const shadowResultQueue = new Queue(QueueName.ShadowResult, {
    connection: deps.redis,
    prefix: deps.config.QUEUE_PREFIX,
  });
  const shadowWorker = new Worker(
    QueueName.AnalysisShadow,
    createShadowProcessor({ ...workerDeps, shadowResultQueue, models }),
    { connection: deps.redis, prefix: deps.config.QUEUE_PREFIX, concurrency: 1 },
  );
  shadowWorker.on('error', () => undefined);
  return {
    worker,
    resultQueue,
    processor,
    close: async () => {
      await worker.close();
      await shadowWorker.close();
      await models.close();
      await resultQueue.close();
      await shadowResultQueue.close();
    },
  };
}
