import { z } from 'zod';

// Booleans arrive from the environment as text; only these spellings count as true.
const zBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * The whole configuration, validated once at boot. Every setting has an embedded default so a
 * laptop needs no configuration; see .env.example for the meaning of each.
 */
export const ZConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  UPLOAD_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: zBool.default(false),
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(12),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default('Chest Doctor AI <no-reply@localhost>'),
  EMAIL_OUTBOX_DIR: z.string().optional(),
  QUEUE_PREFIX: z.string().default('cxr'),
  ANALYSIS_WAIT_MS: z.coerce.number().int().min(0).default(30_000),
  /** A worker gives up on one attempt after this long (hung inference); BullMQ retries it. */
  ANALYSIS_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
  /** Analyses still `queued` this long with no job in Redis are re-enqueued by the reconciler. */
  ANALYSIS_STUCK_SECONDS: z.coerce.number().int().min(1).default(60),
  ANALYSIS_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  /** Follow-up replies: 'grounded' (built in) or 'openai' (needs LLM_BASE_URL); unset picks openai when LLM_BASE_URL is set. */
  CHAT_RESPONDER: z.enum(['grounded', 'openai']).optional(),
  MODEL_DIR: z.string().default('./models/cxr'),
  CLIENT_DIST_DIR: z.string().default('./dist/client'),
  S3_ENDPOINT: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  LLM_BASE_URL: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  LLM_API_KEY: z.string().optional(),
  RATE_LIMIT_DISABLED: zBool.default(false),
  // Password hashing (argon2id). The defaults are OWASP's minimum; tests lower them for speed,
  // and production refuses anything weaker (server/src/lib/password.ts).
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(1024).default(19_456),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
  ARGON2_PARALLELISM: z.coerce.number().int().min(1).default(1),
  /** How many hashes may run at once: each holds ARGON2_MEMORY_KIB, so this bounds memory. */
  ARGON2_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  // Security rate limits (always on, unlike RATE_LIMIT_DISABLED's global limiter).
  LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).default(50),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  SIGNUPS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(20),
  SIGNUPS_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(5),
  RESET_REQUESTS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(20),
  RESET_REQUESTS_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(5),
});

export type TConfig = z.infer<typeof ZConfig>;

/** Parses the environment; on bad input prints which variables are wrong and exits. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): TConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZConfig.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export function uploadDir(config: TConfig): string {
  return config.UPLOAD_DIR ?? `${config.DATA_DIR}/uploads`;
}

export function outboxDir(config: TConfig): string {
  return config.EMAIL_OUTBOX_DIR ?? `${config.DATA_DIR}/outbox`;
}
