import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/**
 * Serves the built client at / and answers every other GET that is not an API call with
 * index.html, so /login, /chat/settings and unknown paths reach the client router.
 */
const clientApp: FastifyPluginAsync<{ distDir: string }> = async (app, opts) => {
  const root = resolve(opts.distDir);
  const hasClient = existsSync(resolve(root, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, cacheControl: false });
  }
  app.setNotFoundHandler(async (req, reply) => {
    // /dicomweb too: a DICOMweb client must get a JSON error, never the web app's HTML with 200.
    const isApi = ['/api', '/trpc', '/dicomweb'].some((p) => req.url.startsWith(p));
    if (req.method !== 'GET' || isApi) {
      return reply.status(404).send({ success: false, message: 'Not found', code: 'NOT_FOUND' });
    }
    if (!hasClient) return reply.status(503).type('text/plain').send('The web client is not built: run npm run build');
    // Hashed assets are immutable; the HTML shell must always be revalidated.
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
};

export default clientApp;
