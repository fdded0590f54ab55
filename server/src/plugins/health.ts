import type { FastifyPluginAsync } from 'fastify';
import { redisReachable } from '@common/redis.js';
import { dicomNodeStatus } from '../services/dicom-node/dicom-node-status.js';

// Probes come often from a few addresses (load balancer, orchestrator): counting them against
// the per-IP limiter made a healthy server answer 429 to its own health checks.
const UNLIMITED = { config: { rateLimit: false } } as const;

/** /healthz: the process answers. /readyz: it can reach its database and Redis. */
const health: FastifyPluginAsync = async (app) => {
  app.get('/healthz', UNLIMITED, async () => ({ status: 'ok' }));
  app.get('/readyz', UNLIMITED, async (_req, reply) => {
    const [database, redis] = await Promise.all([
      Promise.race([pingDb(), new Promise<boolean>((r) => setTimeout(() => r(false), 1500).unref())]),
      redisReachable(app.deps.redis),
    ]);
    const ready = database && redis;
    // The DICOM node waiting for its owner (issue 36, S11) is said here but keeps the web app in
    // rotation: the owner needs the web app to confirm the address.
    const dicomNode = dicomNodeStatus(app.deps.config);
    return reply.status(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not ready',
      checks: { database, redis },
      ...(dicomNode ? { dicomNode } : {}),
    });
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
