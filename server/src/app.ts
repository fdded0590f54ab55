import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import type { AppDeps } from './deps.js';
import { TRPC_MAX_BATCH_SIZE } from '@contracts/trpc-limits.js';
import apiCacheControl from './plugins/api-cache-control.js';
import authPlugin from './plugins/auth.js';
import clientApp from './plugins/client-app.js';
import countBatchedCalls from './plugins/count-batched-calls.js';
import csrf from './plugins/csrf.js';
import health from './plugins/health.js';
import holdRefusals from './plugins/hold-refusals.js';
import globalRateLimit from './plugins/rate-limit.js';
import refuseNul from './plugins/refuse-nul.js';
import trpcEndpoint from './plugins/trpc-endpoint.js';
import { loggerOptions } from '@common/logger.js';
import { MAX_UPLOAD_BYTES } from '@contracts/dicom-limits.js';
import rest from './rest/index.js';
import stowRoutes from './dicomweb/stow-routes.js';
import { handleError } from './rest/handle-error.js';
import { createTrpcContextFactory } from './trpc/context.js';
import { appRouter, type AppRouter } from './trpc/router.js';

declare module 'fastify' {
  interface FastifyInstance {
    pingDb(): Promise<void>;
  }
}

export interface BuildAppOptions {
  deps: AppDeps;
  pingDb: () => Promise<void>;
  /** Pino logger options or false; tests usually pass false. */
  logger?: boolean | object;
}

/**
 * Builds the HTTP app from already-opened dependencies (see open-deps.ts). Plugins in order:
 * security headers, cookies, rate limit, CSRF, auth, then routes. Tests call this and use
 * app.inject(); server.ts adds listening and shutdown.
 */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { deps } = opts;
  const { config } = deps;
  const https = config.PUBLIC_URL.startsWith('https:');
  const app = Fastify({
    logger: opts.logger === undefined ? loggerOptions(config) : opts.logger,
    genReqId: () => randomUUID(),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Upload routes set their own limit; JSON bodies are small.
    routerOptions: { maxParamLength: 200 },
  });
  app.decorate('deps', deps);
  app.decorate('pingDb', opts.pingDb);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (req.url.startsWith('/trpc/')) {
      // tRPC decodes the (already decoded) procedure name again: '/trpc/%25' threw a URIError (500).
      if (/%25/i.test(req.url.split('?', 1)[0] ?? ''))
        return reply.status(404).send({ success: false, message: 'Not found', code: 'NOT_FOUND' });
      // Its adapter answers 500 to a multipart body (it tries to JSON.stringify the stream); no procedure takes one.
      if (/^multipart\//i.test(req.headers['content-type'] ?? ''))
        return reply
          .status(415)
          .send({ success: false, message: 'Unsupported content type', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'"],
        'upgrade-insecure-requests': https ? [] : null,
      },
    },
    hsts: https ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  // Before CSRF and auth, so a refused request is counted too (plugins/rate-limit.ts).
  await app.register(globalRateLimit);
  await app.register(holdRefusals);
  await app.register(countBatchedCalls);
  await app.register(apiCacheControl);
  // A form post arrives as text/plain or urlencoded; we accept neither anywhere.
  app.removeContentTypeParser('text/plain');
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024 } });
  await app.register(csrf);
  await app.register(authPlugin);

  // One error path for every route: the spec's `{ success: false, message, code }`.
  app.setErrorHandler(handleError);

  await app.register(refuseNul);

  await app.register(health);
  await app.register(trpcEndpoint<AppRouter>, {
    prefix: '/trpc',
    router: appRouter,
    maxBatchSize: TRPC_MAX_BATCH_SIZE,
    createContext: createTrpcContextFactory(deps),
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, path }, 'trpc error');
    },
  });
  await app.register(rest, { prefix: '/api' });
  await app.register(stowRoutes, { prefix: '/dicomweb' });
  await app.register(clientApp, { distDir: config.CLIENT_DIST_DIR });
  return app;
}
