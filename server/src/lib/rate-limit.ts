import type { Redis } from 'ioredis';
import { AppError } from './app-error.js';
import { sha256Hex } from './tokens.js';

/**
 * Fixed-window counters in Redis for the security limits (failed logins, sign-ups, reset
 * requests). They live in Redis, not in memory, so every server process shares them, and they
 * are namespaced by QUEUE_PREFIX so tests (and side-by-side installs) never see each other's.
 */
export interface TCount {
  count: number;
  /** Milliseconds until the window resets (0 when no window is open). */
  resetInMs: number;
}

// ioredis queues commands while disconnected (maxRetriesPerRequest: null), which would hang the
// request; a limit we cannot check is treated as exceeded (see unavailable()).
const REDIS_TIMEOUT_MS = 1500;

const UNHIT_LUA =
  "if (tonumber(redis.call('GET', KEYS[1]) or '0') > 0) then return redis.call('DECR', KEYS[1]) end return 0";

export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /**
   * The Redis key for a subject. Emails and IPs are hashed so Redis never holds an address in
   * the clear (it is not where we keep personal data).
   */
  key(scope: string, subject: string): string {
    return `${this.prefix}:authrl:${scope}:${sha256Hex(subject.toLowerCase())}`;
  }

  /** Counts one attempt and returns the new count. */
  async hit(key: string, windowMs: number): Promise<TCount> {
    const res = await withTimeout(this.redis.multi().set(key, '0', 'PX', windowMs, 'NX').incr(key).pttl(key).exec());
    const count = Number(res?.[1]?.[1] ?? 0);
    const ttl = Number(res?.[2]?.[1] ?? windowMs);
    return { count, resetInMs: ttl > 0 ? ttl : windowMs };
  }

  /** Reads a counter without counting an attempt. */
  async peek(key: string): Promise<TCount> {
    const res = await withTimeout(this.redis.multi().get(key).pttl(key).exec());
    const count = Number(res?.[0]?.[1] ?? 0);
    const ttl = Number(res?.[1]?.[1] ?? 0);
    return { count, resetInMs: ttl > 0 ? ttl : 0 };
  }

  /** Takes one counted attempt back (never below zero, never re-creating an expired window). */
  async unhit(key: string): Promise<void> {
    await withTimeout(this.redis.eval(UNHIT_LUA, 1, key));
  }

  async reset(key: string): Promise<void> {
    await withTimeout(this.redis.del(key));
  }
}

async function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable()), REDIS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([p.catch((err: unknown) => Promise.reject(unavailable(err))), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Fail closed: without Redis we cannot count attempts, and letting unlimited guesses through
 * while it is down would turn an outage into an opening.
 */
function unavailable(cause?: unknown): AppError {
  return new AppError('UNAVAILABLE', 'Service temporarily unavailable. Please try again shortly.', { cause });
}

/** "15 minutes" / "1 minute", rounded up, for the 429 messages. */
export function minutesText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
