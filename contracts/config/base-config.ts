import { z } from 'zod';
import { parseEnv } from './parse-env.js';

/**
 * Settings every process reads (server, worker, scripts): they must agree on where Redis, the
 * queues, the images and the model are. Each process extends this with its own part
 * (server-config.ts, worker-config.ts); see .env.example for the meaning of each.
 */
export const baseConfigShape = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z.string().default('cxr'),
  /** A worker gives up on one attempt after this long (hung inference); BullMQ retries it. */
  ANALYSIS_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
  MODEL_DIR: z.string().default('./models/cxr'),
  /** Imported models (issue 47), one folder each; default DATA_DIR/models. The worker reads a model's folder by its id. */
  MODEL_REGISTRY_DIR: z.string().optional(),
  /** Models that may run in shadow at once; the worker keeps one session each, plus the live one. */
  MODEL_MAX_SHADOWS: z.coerce.number().int().min(0).max(8).default(2),
  /** An imported ONNX file larger than this (MB) is refused: by the server while it streams, and by the import itself. */
  MODEL_IMPORT_MAX_MB: z.coerce.number().positive().default(512),
  UPLOAD_DIR: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
};

export const ZBaseConfig = z.object(baseConfigShape);
export type TBaseConfig = z.infer<typeof ZBaseConfig>;

/** The base settings alone, for tools that need no process-specific part (classify, benches). */
export function loadBaseConfig(env: Record<string, string | undefined> = process.env): TBaseConfig {
  return parseEnv(ZBaseConfig, env);
}

export function uploadDir(config: Pick<TBaseConfig, 'UPLOAD_DIR' | 'DATA_DIR'>): string {
  return config.UPLOAD_DIR ?? `${config.DATA_DIR}/uploads`;
}

/** Where imported models live (issue 47): MODEL_REGISTRY_DIR, else DATA_DIR/models. */
export function modelRegistryDir(config: Pick<TBaseConfig, 'MODEL_REGISTRY_DIR' | 'DATA_DIR'>): string {
  return config.MODEL_REGISTRY_DIR ?? `${config.DATA_DIR}/models`;
}
