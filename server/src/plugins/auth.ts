import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { API_KEY_MESSAGES } from '@contracts/schemas/api-key.js';
import { AppError } from '../lib/app-error.js';
import { credentialOf } from '../lib/request-auth.js';
import { API_KEY_PREFIX, resolveApiKey } from '../services/api-key/resolve-api-key.js';
import { admitCaller, type TAuthLevel, type TPasswordSession } from '../services/auth/auth-level.js';
import { resolveSession, type TAuth } from '../services/auth/resolve-session.js';
import { createSessionCache } from '../services/auth/session-cache.js';

/** A REST route's auth level, declared in its options (`config: { auth }`): see auth-level.ts. */
export type TRouteAuth = TAuthLevel;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: TRouteAuth;
    /** The route accepts a team API key (STOW-RS only): every other route refuses one with 403. */
    teamKey?: boolean;
  }
  interface FastifyRequest {
    /** The caller the route's auth level admitted; only on routes whose level is not public. */
    signedIn(): TAuth;
    /** The same, narrowed, on a `password-session` route. */
    passwordSession(): TPasswordSession;
  }
}

const pendingAuth = new WeakMap<FastifyRequest, Promise<TAuth | null>>();
const admitted = new WeakMap<FastifyRequest, TAuth>();

/**
 * Decorates requests with a memoised resolveAuth(), and enforces each route's declared auth
 * level in one onRequest hook (before the body is read, so an anonymous upload is refused
 * without buffering it). Its AppErrors go through the app's one error handler.
 */
export default fp(async (app) => {
  const { db, config } = app.deps;
  const sessionCache = createSessionCache(app.deps);
  app.addHook('onClose', () => sessionCache.close());
  app.decorateRequest('resolveAuth', function (this: FastifyRequest) {
    let pending = pendingAuth.get(this);
    if (!pending) {
      const cred = credentialOf(this);
      pending = !cred
        ? Promise.resolve(null)
        : cred.from === 'bearer' && cred.token.startsWith(API_KEY_PREFIX)
          ? resolveApiKey({ db, key: cred.token })
          : resolveSession({ db, token: cred.token, idleHours: config.SESSION_IDLE_HOURS, cache: sessionCache });
      pendingAuth.set(this, pending);
    }
    return pending;
  });
  app.decorateRequest('meta', function (this: FastifyRequest) {
    return { ip: this.ip, requestId: String(this.id), userAgent: this.headers['user-agent'] };
  });
  app.decorateRequest('signedIn', function (this: FastifyRequest) {
    const auth = admitted.get(this);
    // A programming error (a public route asking for its user), not a caller's: a 500.
    if (!auth) throw new Error(`signedIn() on a route without an auth level: ${this.routeOptions.url ?? ''}`);
    return auth;
  });

  app.decorateRequest('passwordSession', function (this: FastifyRequest) {
    const auth = this.signedIn();
    if (this.routeOptions.config.auth !== 'password-session' || !auth.sessionId)
      throw new Error(`passwordSession() on a route that is not password-session: ${this.routeOptions.url ?? ''}`);
    return { ...auth, sessionId: auth.sessionId };
  });

  app.addHook('onRequest', async (req) => {
    // A team key is a STOW-RS credential and nothing else (issue 39 S2): it is refused on every
    // route that does not say it takes one, public ones included, before any handler runs.
    const cred = credentialOf(req);
    if (cred?.from === 'bearer' && cred.token.startsWith(API_KEY_PREFIX) && !req.routeOptions.config.teamKey) {
      const auth = await req.resolveAuth();
      if (auth?.keyTeamId) throw new AppError('FORBIDDEN', API_KEY_MESSAGES.teamKeyStowOnly);
    }
    const level = req.routeOptions.config.auth;
    if (!level || level === 'public') return;
    admitted.set(req, admitCaller({ level, auth: await req.resolveAuth() }));
  });
});
