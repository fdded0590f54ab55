import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';

const { version } = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * The OpenAPI 3.1 document, generated from the routes' own zod schemas (so it cannot drift from
 * what they accept and answer): JSON at /api/docs/json, a browsable page at /api/docs. Public:
 * it describes the API, not anyone's data. Swagger UI is served from node_modules, with no
 * inline script, so the app's CSP holds for it unchanged.
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Chest Doctor AI API',
        version,
        description:
          'REST API of a self-hosted Chest Doctor AI server. Programs authenticate with a personal API key ' +
          '(Settings → API keys) sent as `Authorization: Bearer cxr_…`. Results are assistive only and not a ' +
          'substitute for professional judgement.',
      },
      servers: [{ url: app.deps.config.PUBLIC_URL }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A personal API key (cxr_…) or a session token' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'token', description: 'The web session cookie' },
        },
      },
    },
    // Files (z.custom Buffers) carry their OpenAPI form in .meta(); zod cannot derive it.
    transform: createJsonSchemaTransform({ zodToJsonConfig: { unrepresentable: 'any' } }),
  });
  // indexPrefix: the page's asset links are absolute, and this plugin lives under /api.
  await app.register(swaggerUi, { routePrefix: '/docs', indexPrefix: '/api', uiConfig: { validatorUrl: null } });
}
