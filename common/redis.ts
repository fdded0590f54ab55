import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection for BullMQ and rate limits. `maxRetriesPerRequest: null` is what BullMQ
 * workers require; the short connect timeout lets callers answer 503 quickly when Redis is down.
 */
export function createRedis(url: string, opts: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    connectTimeout: 2000,
    // Keep retrying forever with a capped delay: Redis coming back must heal us without a restart.
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
    ...opts,
  });
  // Without a listener ioredis would print every reconnect failure as an unhandled error.
  redis.on('error', () => undefined);
  return redis;
}

/** True when Redis answers PING within `timeoutMs`. */
export async function redisReachable(redis: Redis, timeoutMs = 800): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
  const ping = redis
    .ping()
    .then((r) => r === 'PONG')
    .catch(() => false);
  return Promise.race([ping, timeout]);
}
