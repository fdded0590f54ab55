import fp from 'fastify-plugin';

/**
 * API answers carry account and patient data (profiles, history, exports, a login's token), so
 * no browser or proxy may keep them: every /api and /trpc answer is `private, no-store` unless
 * its route set its own Cache-Control. Errors are included (a 401/404 says something too).
 */
export default fp(async (app) => {
  app.addHook('onSend', async (req, reply) => {
    if (!req.url.startsWith('/api/') && !req.url.startsWith('/trpc/')) return;
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-store');
  });
});
