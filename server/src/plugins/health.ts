import type { FastifyPluginAsync } from 'fastify';
import { redisReachable } from '@common/redis.js';

/** /healthz: the process answers. /readyz: it can reach its database and Redis. */
const health: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const [database, redis] = await Promise.all([
      Promise.race([
        pingDb(),
        new Promise<boolean>((r) => setTimeout(() => r(false), 1500).unref()),
      ]),
      redisReachable(app.deps.redis),
    ]);
    const ready = database && redis;
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: { database, redis } });
  });

  async function pingDb(): Promise<boolean> {
    try {
      await app.pingDb();
      return true;
    } catch {
      return false;
    }
  }
};

export default health;
