// Loaded for its types: request/reply decorations and @fastify/cookie's, wherever routers are compiled
// (the client's typecheck reaches the server through the AppRouter type, not through app.ts).
import '@fastify/cookie';
import type { AppDeps, RequestMeta } from '../deps.js';
import type { TAuth } from '../services/auth/resolve-session.js';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    /** The signed-in user (session cookie, bearer session token or API key), resolved once. */
    resolveAuth(): Promise<TAuth | null>;
    /** Audit facts about this request. */
    meta(): RequestMeta;
  }
}
