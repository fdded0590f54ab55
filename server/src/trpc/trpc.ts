import { initTRPC, TRPCError } from '@trpc/server';
import { AUTH_MESSAGES } from '@contracts/schemas/auth.js';
import { ZodError } from 'zod';
import { isAppError, type AppError } from '../lib/app-error.js';
import { asUnavailable } from '../lib/dependency-down.js';
import { trpcCodeOf } from '../lib/error-status.js';
import { requireKeyManager, requirePasswordSession, requireSiteAdmin } from '../services/auth/auth-level.js';
import type { TrpcContext } from './context.js';

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    // Zod messages are the spec's validation strings; surface the first one as the message.
    if (cause instanceof ZodError) {
      return {
        ...shape,
        message: cause.issues[0]?.message ?? shape.message,
        data: { ...shape.data, stack: undefined, appCode: 'BAD_REQUEST' },
      };
    }
    if (isAppError(cause)) {
      return { ...shape, message: cause.message, data: { ...shape.data, stack: undefined, appCode: cause.code } };
    }
    // Anything unexpected: a generic message; the detail is logged by the adapter's onError.
    if (error.code === 'INTERNAL_SERVER_ERROR') {
      return {
        ...shape,
        message: 'Internal server error',
        data: { ...shape.data, stack: undefined, appCode: 'INTERNAL' },
      };
    }
    return { ...shape, data: { ...shape.data, stack: undefined, appCode: error.code } };
  },
});

/** Turns service AppErrors into TRPCErrors with the mapped code, keeping the safe message. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  const down = result.ok ? null : asUnavailable(result.error.cause ?? result.error);
  if (!result.ok && (down || isAppError(result.error.cause))) {
    const app = down ?? (result.error.cause as AppError);
    throw new TRPCError({ code: trpcCodeOf[app.code], message: app.message, cause: app });
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(mapAppErrors);

/*
 * One builder per auth level, as REST routes declare them (`config: { auth }`, see
 * services/auth/auth-level.ts): public → publicProcedure, user → protectedProcedure,
 * password-session, key-manager and site-admin → the builders below. A procedure never checks
 * its caller's level inline.
 */

/** user: narrows ctx.auth to non-null; anything else is 401 (which makes the client log out). */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.auth) throw new TRPCError({ code: 'UNAUTHORIZED', message: AUTH_MESSAGES.authRequired });
  return next({ ctx: { ...ctx, auth: ctx.auth } });
});

/** password-session: a session from a password login, never an API key; ctx.auth has its sessionId. */
export const passwordSessionProcedure = protectedProcedure.use(({ ctx, next }) =>
  next({ ctx: { ...ctx, auth: requirePasswordSession(ctx.auth) } }),
);

/** key-manager: a session, never an API key. */
export const keyManagerProcedure = protectedProcedure.use(({ ctx, next }) =>
  next({ ctx: { ...ctx, auth: requireKeyManager(ctx.auth) } }),
);

/** site-admin: an account holding the role (auth-level.ts). */
export const siteAdminProcedure = protectedProcedure.use(({ ctx, next }) =>
  next({ ctx: { ...ctx, auth: requireSiteAdmin(ctx.auth) } }),
);

/** site-admin-session: a site administrator from a password session (applying thresholds). */
export const siteAdminSessionProcedure = siteAdminProcedure.use(({ ctx, next }) =>
  next({ ctx: { ...ctx, auth: requirePasswordSession(ctx.auth) } }),
);
