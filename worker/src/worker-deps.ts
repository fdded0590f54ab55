import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { TWorkerConfig } from '@contracts/config/worker-config.js';
import type { ImageStore } from '@contracts/image-store.js';

/** The settings one analysis job reads; a server config satisfies it too (the in-process tests). */
export type TJobConfig = Pick<
  TWorkerConfig,
  | 'NODE_ENV'
  | 'MODEL_DIR'
  | 'QUEUE_PREFIX'
  | 'ANALYSIS_TIMEOUT_MS'
  | 'DATA_DIR'
  | 'MODEL_REGISTRY_DIR'
  | 'MODEL_MAX_SHADOWS'
> &
  Partial<Pick<TWorkerConfig, 'CXR_TEST_INFERENCE_DELAY_MS'>>;

/** The worker never opens the database: it reads images, runs the model and reports back. */
export interface WorkerDeps {
  config: TJobConfig;
  redis: Redis;
  images: ImageStore;
  resultQueue: Queue;
  log: Logger;
}
