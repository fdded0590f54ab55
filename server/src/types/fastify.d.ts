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
