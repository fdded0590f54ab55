import { TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { asUnavailable } from '../lib/dependency-down.js';
import '../types/fastify-augment.js';
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
    meta: {
      ip: opts.meta?.ip ?? '127.0.0.1',
      requestId: opts.meta?.requestId ?? 'internal',
      userAgent: opts.meta?.userAgent,
    },
    reply: opts.reply ?? null,
  };
}

export function createTrpcContextFactory(deps: AppDeps) {
  return async ({ req, res }: { req: FastifyRequest; res: FastifyReply }): Promise<TrpcContext> =>
    createContextInner({
      deps,
      auth: await req.resolveAuth().catch(unavailableOrRethrow),
      meta: req.meta(),
      reply: res,
    });
}

/** Resolving the session needs the database; when it is down the call answers 503, not 500. */
function unavailableOrRethrow(err: unknown): never {
  const down = asUnavailable(err);
  throw down ? new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: down.message, cause: down }) : err;
}
