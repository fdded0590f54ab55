import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { TDb } from './db/client.js';
import type { TConfig } from '@contracts/config/server-config.js';
import type { ImageStore } from '@contracts/image-store.js';

/**
 * What services need from the outside world, passed explicitly (no globals) so tests can build
 * the same graph against a throwaway database and their own queue prefix.
 */
export interface AppDeps {
  config: TConfig;
  db: TDb;
  redis: Redis;
  analysisQueue: Queue;
  images: ImageStore;
  log: Logger;
}

/** Per-request facts services record in the audit log. */
export interface RequestMeta {
  ip: string;
  requestId: string;
  userAgent?: string | undefined;
}
