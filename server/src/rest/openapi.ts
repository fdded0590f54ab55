import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { buildOpenApiDocument } from './openapi/build-document.js';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** GET /api/docs: the OpenAPI 3.1 document (public: it describes the API, not anyone's data). */
const routes: FastifyPluginAsync = async (app) => {
  // Built once: it depends only on code and PUBLIC_URL.
  const document = JSON.stringify(buildOpenApiDocument(app.deps.config.PUBLIC_URL, version));
  app.get('/docs', async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-cache').send(document));
};

export default routes;
