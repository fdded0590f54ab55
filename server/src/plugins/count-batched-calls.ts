import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import { createURL } from '@trpc/server/adapters/node-http';
import { TRPC_MAX_BATCH_SIZE } from '@contracts/trpc-limits.js';
import { TOO_MANY_REQUESTS_BODY } from './rate-limit-body.js';

/**
 * A tRPC batch runs several procedures in one HTTP request (`/trpc/a,b,c?batch=1`); the global
 * limiter counts requests, so without this one request could carry many logins (argon2 hashes)
 * for the price of one. Each call after the first is counted against the same per-IP budget,
 * before any procedure runs. Registered after the global limiter (its createRateLimit()
 * without options shares the global store, key and allow-list).
 */
export default fp(async (app) => {
  const countOne = app.createRateLimit();
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/trpc/')) return;
    if (!isTrpcBatch(req.raw)) return;
    const path = (req.params as { path?: unknown } | undefined)?.path;
    const calls = typeof path === 'string' ? path.split(',').length : 1;
    // A longer batch is refused by the adapter (maxBatchSize) without running anything.
    if (calls > TRPC_MAX_BATCH_SIZE) return;
    for (let i = 1; i < calls; i++) {
      const r = await countOne(req);
      if (!r.isAllowed && r.isExceeded) return reply.status(429).send(TOO_MANY_REQUESTS_BODY);
      // The global limiter's hook ran first and wrote its header: the budget left is after these calls.
      if ('remaining' in r) reply.header('x-ratelimit-remaining', r.remaining);
    }
  });
});

/**
 * Batch-ness exactly as tRPC decides it (its adapter's URL, then `searchParams.get('batch') ===
 * '1'`): Fastify's query parser reads `?batch=1&batch=1` as an array, which let a batch count as
 * one request (issue 23 N2). A URL tRPC cannot parse is refused by it before anything runs.
 */
function isTrpcBatch(raw: IncomingMessage): boolean {
  try {
    return createURL(raw).searchParams.get('batch') === '1';
  } catch {
    return false;
  }
}
