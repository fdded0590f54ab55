import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { TConfig } from '../../server/src/env.js';
import type { ImageStore } from '../../server/src/storage/image-store.js';

/** The worker never opens the database: it reads images, runs the model and reports back. */
export interface WorkerDeps {
  config: TConfig;
  redis: Redis;
  images: ImageStore;
  resultQueue: Queue;
  log: Logger;
}
