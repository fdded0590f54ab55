import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { createRedis } from '@common/redis.js';
import { credentialOf } from '../lib/request-auth.js';
import { TOO_MANY_REQUESTS_BODY } from './rate-limit-body.js';

/**
 * Signed-in requests spend their account's budget, not their address's: users behind one
 * hospital NAT no longer share one (issue 23 Info). The key comes only from a credential that
 * resolved to a caller (memoised, so the auth check reuses it); a forged or expired token counts
 * against its address like an anonymous request.
 */
async function limiterKey(req: FastifyRequest): Promise<string> {
  if (!credentialOf(req)) return req.ip;
  const auth = await req.resolveAuth().catch(() => null);
  return auth ? `user:${auth.userId}` : req.ip;
}

/**
 * The global limiter (RATE_LIMIT_PER_MINUTE per account, else per address), counted in one
 * app-level onRequest hook registered before the CSRF and auth hooks. The library's own
 * `global: true` adds a route-level hook, and route hooks run after every app-level one: a
 * request that the auth check refused (401) or the CSRF check refused (403) was never counted,
 * so a flood of random bearer tokens got no 429 and no hold (issue 36 S4). A route opts out
 * with `config: { rateLimit: false }` (the health probes).
 */
export default fp(async (app) => {
  const { config } = app.deps;
  // Its own connection with a short command timeout and no offline queue: a Redis that hangs or
  // is gone makes the limiter's calls fail fast (skipOnError lets the request through to the
  // route, which answers 503 where it needs Redis) instead of stalling every request.
  const limiterRedis = createRedis(config.REDIS_URL, {
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  app.addHook('onClose', async () => limiterRedis.disconnect());
  await app.register(rateLimit, {
    global: false,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    redis: limiterRedis,
    nameSpace: `${config.QUEUE_PREFIX}:rl:`,
    skipOnError: true,
    enableDraftSpec: false,
    keyGenerator: limiterKey,
    allowList: () => config.RATE_LIMIT_DISABLED,
    errorResponseBuilder: () => ({ ...TOO_MANY_REQUESTS_BODY }),
  });
  const count = app.rateLimit();
  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config.rateLimit === false) return;
    await count.call(app, req, reply);
  });
});
