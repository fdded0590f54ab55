/// <reference path="../types/fastify.d.ts" />
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps, RequestMeta } from '../deps.js';
import type { TAuth } from '../services/auth/resolve-session.js';

export interface TrpcContext {
  deps: AppDeps;
  auth: TAuth | null;
  meta: RequestMeta;
  /** Present for HTTP calls: login and logout set and clear the session cookie through it. */
  reply: FastifyReply | null;
}

/** Built without a request so tests can call procedures through createCaller. */
export function createContextInner(opts: {
  deps: AppDeps;
  auth?: TAuth | null;
  meta?: Partial<RequestMeta>;
  reply?: FastifyReply | null;
}): TrpcContext {
  return {
    deps: opts.deps,
    auth: opts.auth ?? null,
    meta: { ip: opts.meta?.ip ?? '127.0.0.1', requestId: opts.meta?.requestId ?? 'internal', userAgent: opts.meta?.userAgent },
    reply: opts.reply ?? null,
  };
}

export function createTrpcContextFactory(deps: AppDeps) {
  return async ({ req, res }: { req: FastifyRequest; res: FastifyReply }): Promise<TrpcContext> =>
    createContextInner({ deps, auth: await req.resolveAuth(), meta: req.meta(), reply: res });
}
