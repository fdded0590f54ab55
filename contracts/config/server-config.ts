import { z } from 'zod';
import { baseConfigShape } from './base-config.js';
import { dicomConfigShape } from './dicom-config.js';
import { checkOidcConfig, oidcConfigShape } from './oidc-config.js';
import { reportConfigShape } from './report-config.js';
import { parseEnv, zBool } from './parse-env.js';

/**
 * The server's whole configuration (the base part every process shares, then the server's own),
 * validated once at boot. Every setting has an embedded default so a laptop needs no
 * configuration; see .env.example for the meaning of each.
 */
export const ZConfig = z
  .object({
    ...baseConfigShape,
    ...dicomConfigShape,
    ...oidcConfigShape,
    ...reportConfigShape,
    /** What the live model and the shadows may take of a worker's memory (issue 47); a shadow past it is refused. */
    MODEL_MEMORY_LIMIT_MB: z.coerce.number().int().min(1).default(2048),
    /** Signed studies a shadow must be compared on before promotion without { "confirm": true }. */
    MODEL_PROMOTE_MIN_STUDIES: z.coerce.number().int().min(0).default(200),
    /** How long POST /api/site/models waits for the worker's checks of an imported model. */
    MODEL_IMPORT_WAIT_MS: z.coerce.number().int().min(1000).default(180_000),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: z.url().default('http://localhost:3000'),
    DATABASE_URL: z.string().optional(),
    /** The embedded PGlite's folder ('memory://' for a throwaway one); default DATA_DIR/pg. */
    PGLITE_DIR: z.string().optional(),
    TRUST_PROXY: zBool.default(false),
    SESSION_IDLE_HOURS: z.coerce.number().positive().default(12),
    /** A worklist claim older than this is free again (issue 32): a reader who walked away holds nothing for long. */
    WORKLIST_CLAIM_TIMEOUT_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
    SMTP_URL: z.string().optional(),
    SMTP_FROM: z.string().default('Chest Doctor AI <no-reply@localhost>'),
    EMAIL_OUTBOX_DIR: z.string().optional(),
    ANALYSIS_WAIT_MS: z.coerce.number().int().min(0).default(30_000),
    /** Analyses still `queued` this long with no job in Redis are re-enqueued by the reconciler. */
    ANALYSIS_STUCK_SECONDS: z.coerce.number().int().min(1).default(60),
    ANALYSIS_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
    /** Follow-up replies: 'grounded' (built in) or 'openai' (needs LLM_BASE_URL); unset picks openai when LLM_BASE_URL is set. */
    CHAT_RESPONDER: z.enum(['grounded', 'openai']).optional(),
    CLIENT_DIST_DIR: z.string().default('./dist/client'),
    LLM_BASE_URL: z.string().optional(),
    LLM_MODEL: z.string().optional(),
    LLM_API_KEY: z.string().optional(),
    RATE_LIMIT_DISABLED: zBool.default(false),
    /** The global limiter: requests per minute on every route, per signed-in account, else per client IP. */
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    /** Every 429 waits this long before it is sent (0: at once), so instant retries cannot flood the server. */
    REFUSAL_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /** At most this many 429s wait at once; past it they are sent straight away. */
    REFUSAL_DELAY_MAX_HELD: z.coerce.number().int().min(0).default(1024),
    // Password hashing (argon2id). The defaults are OWASP's minimum; tests lower them for speed,
    // and production refuses anything weaker (server/src/lib/password.ts).
    ARGON2_MEMORY_KIB: z.coerce.number().int().min(1024).default(19_456),
    ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
    ARGON2_PARALLELISM: z.coerce.number().int().min(1).default(1),
    /** How many hashes may run at once: each holds ARGON2_MEMORY_KIB, so this bounds memory. */
    ARGON2_CONCURRENCY: z.coerce.number().int().min(1).default(4),
    /** How many hashes may wait for a slot; past it a login, signup or reset answers 429 at once. */
    ARGON2_QUEUE_LIMIT: z.coerce.number().int().min(0).default(32),
    // Security rate limits (always on, unlike RATE_LIMIT_DISABLED's global limiter).
    /**
     * Login, signup and password-reset attempts per client IP per minute, successful or not: far
     * tighter than RATE_LIMIT_PER_MINUTE, so one address cannot spend the machine's argon2 capacity.
     */
    AUTH_ATTEMPTS_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
    LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).default(50),
    LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().positive().default(15),
    SIGNUPS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(20),
    SIGNUPS_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(5),
    RESET_REQUESTS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(20),
    RESET_REQUESTS_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(5),
    /** Team invitation e-mails per recipient address per hour, across every team (issue 39 S5). */
    INVITATIONS_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(5),
    /** Team invitation e-mails one account sends per hour, across every team it administers. */
    INVITATIONS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).default(50),
    // Site administration (issue 17): the spec has no roles, so the operator names the accounts
    // that may calibrate thresholds and see the monitor. Compared lower-cased, like stored emails.
    SITE_ADMIN_EMAILS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      ),
    /** A finding needs at least this many labelled cases (and 5 of each reading) to be calibrated. */
    SITE_CALIBRATION_MIN_CASES: z.coerce.number().int().min(10).default(30),
    /** The monitor's banner shows when a finding's weekly feedback agreement falls below this rate. */
    SITE_AGREEMENT_FLOOR: z.coerce.number().min(0).max(1).default(0.7),
  })
  .superRefine(checkOidcConfig);

export type TConfig = z.infer<typeof ZConfig>;

/** Parses the environment; on bad input throws an error naming the wrong variables. */
export function loadConfig(env: Record<string, string | undefined> = process.env): TConfig {
  return parseEnv(ZConfig, env);
}

export function outboxDir(config: TConfig): string {
  return config.EMAIL_OUTBOX_DIR ?? `${config.DATA_DIR}/outbox`;
}
