import fp from 'fastify-plugin';
import { createRefusalHold } from '../lib/hold-refusal.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** How many 429s wait to be sent now. */
    refusalsHeld(): number;
  }
}

/**
 * Every 429 (the global limiter's, the login-capacity limit's, a full argon2 queue's) waits
 * REFUSAL_DELAY_MS before it is sent (lib/hold-refusal.ts says why). A closing server sends the
 * waiting ones at once.
 */
export default fp(async (app) => {
  const { config } = app.deps;
  const refusals = createRefusalHold({ delayMs: config.REFUSAL_DELAY_MS, maxHeld: config.REFUSAL_DELAY_MAX_HELD });
  app.decorate('refusalsHeld', () => refusals.held());
  app.addHook('onSend', async (_req, reply) => {
    if (reply.statusCode === 429) await refusals.hold();
  });
  app.addHook('preClose', async () => refusals.close());
});
