import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { credentialOf } from '../lib/request-auth.js';
import { API_KEY_PREFIX, resolveApiKey } from '../services/api-key/resolve-api-key.js';
import { resolveSession, type TAuth } from '../services/auth/resolve-session.js';

const cache = new WeakMap<FastifyRequest, Promise<TAuth | null>>();

/** Decorates requests with a memoised resolveAuth(); routes decide whether auth is required. */
export default fp(async (app) => {
  const { db, config } = app.deps;
  app.decorateRequest('resolveAuth', function (this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      const cred = credentialOf(this);
      pending = !cred
        ? Promise.resolve(null)
        : cred.from === 'bearer' && cred.token.startsWith(API_KEY_PREFIX)
          ? resolveApiKey(db, cred.token)
          : resolveSession(db, cred.token, config.SESSION_IDLE_HOURS);
      cache.set(this, pending);
    }
    return pending;
  });
  app.decorateRequest('meta', function (this: FastifyRequest) {
    return { ip: this.ip, requestId: String(this.id), userAgent: this.headers['user-agent'] };
  });
});
