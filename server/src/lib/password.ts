import { randomBytes } from 'node:crypto';
import argon2, { type HashOptions } from 'argon2';
import type { TConfig } from '@contracts/config/server-config.js';
import { AppError } from './app-error.js';

/** OWASP's minimum for argon2id; production refuses to run below it. */
export const ARGON2_MINIMUM = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface TArgon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface PasswordHasher {
  readonly params: TArgon2Params;
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a malformed stored hash (never throws for those). */
  verify(storedHash: string, password: string): Promise<boolean>;
  /**
   * Burns one verification against a throwaway hash with the current parameters, so a login for
   * an unknown email costs the same time as one for a known email.
   */
  verifyDummy(password: string): Promise<void>;
  /** Makes the dummy hash now (at boot), so not even the first unknown-email login is slower. */
  prepare(): Promise<void>;
  needsRehash(storedHash: string): boolean;
  /** Counters for tests and metrics: calls so far and the highest number ever running at once. */
  readonly stats: { hashes: number; verifies: number; inFlight: number; peakInFlight: number };
}

export const HASHER_BUSY_MESSAGE = 'Too many sign-ins at once. Please try again in a moment.';

/**
 * Each argon2 call holds `memoryCost` KiB for its duration, so a burst of logins could exhaust
 * memory; a semaphore lets at most `limit` run and queues the rest. The queue is bounded too
 * (issue 23 N6): past `queueLimit` waiting, a call is refused at once with 429 instead of
 * waiting behind a flood, so a burst of logins cannot hold the machine's hashing capacity.
 */
function semaphore(limit: number, queueLimit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (active >= limit && waiting.length >= queueLimit) throw new AppError('TOO_MANY_REQUESTS', HASHER_BUSY_MESSAGE);
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next waiter (active stays the same) or release it.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

export function paramsOf(
  config: Pick<TConfig, 'ARGON2_MEMORY_KIB' | 'ARGON2_TIME_COST' | 'ARGON2_PARALLELISM'>,
): TArgon2Params {
  return {
    memoryCost: config.ARGON2_MEMORY_KIB,
    timeCost: config.ARGON2_TIME_COST,
    parallelism: config.ARGON2_PARALLELISM,
  };
}

export function createPasswordHasher(
  params: TArgon2Params,
  concurrency: number,
  queueLimit = Number.POSITIVE_INFINITY,
): PasswordHasher {
  const limit = semaphore(concurrency, queueLimit);
  const stats = { hashes: 0, verifies: 0, inFlight: 0, peakInFlight: 0 };
  const counted = <T>(fn: () => Promise<T>) =>
    limit(async () => {
      stats.inFlight++;
      stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);
      try {
        return await fn();
      } finally {
        stats.inFlight--;
      }
    });
  const options: HashOptions = { type: argon2.argon2id, ...params };
  let dummy: Promise<string> | null = null;
  const dummyHash = () => (dummy ??= hasher.hash(randomBytes(24).toString('base64')));

  const hasher: PasswordHasher = {
    params,
    stats,
    hash(password) {
      stats.hashes++;
      return counted(() => argon2.hash(password, options));
    },
    verify(storedHash, password) {
      stats.verifies++;
      return counted(() => argon2.verify(storedHash, password).catch(() => false));
    },
    async verifyDummy(password) {
      await hasher.verify(await dummyHash(), password);
    },
    async prepare() {
      await dummyHash();
    },
    needsRehash(storedHash) {
      try {
        return !storedHash.startsWith('$argon2id$') || argon2.needsRehash(storedHash, params);
      } catch {
        return true;
      }
    },
  };
  return hasher;
}

const byConfig = new WeakMap<TConfig, PasswordHasher>();

/**
 * The process's hasher for this configuration (one semaphore per process in production; each
 * test app has its own config and so its own). Refuses weak parameters in production.
 */
export function passwordHasherFor(config: TConfig): PasswordHasher {
  let hasher = byConfig.get(config);
  if (!hasher) {
    const params = paramsOf(config);
    if (config.NODE_ENV === 'production' && isWeak(params)) {
      throw new Error('ARGON2_* settings are below the minimum (m=19456 KiB, t=2, p=1); refusing to hash passwords');
    }
    hasher = createPasswordHasher(params, config.ARGON2_CONCURRENCY, config.ARGON2_QUEUE_LIMIT);
    byConfig.set(config, hasher);
  }
  return hasher;
}

export function isWeak(p: TArgon2Params): boolean {
  return (
    p.memoryCost < ARGON2_MINIMUM.memoryCost ||
    p.timeCost < ARGON2_MINIMUM.timeCost ||
    p.parallelism < ARGON2_MINIMUM.parallelism
  );
}
