import { initTRPC, TRPCError } from '@trpc/server';
import { AUTH_MESSAGES } from '@contracts/schemas/auth.js';
import { ZodError } from 'zod';
import { isAppError, type AppError } from '../lib/app-error.js';
import { asUnavailable } from '../lib/dependency-down.js';
import { trpcCodeOf } from '../lib/error-status.js';
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

/** Narrows ctx.auth to non-null; anything else is 401 (which makes the client log out). */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.auth) throw new TRPCError({ code: 'UNAUTHORIZED', message: AUTH_MESSAGES.authRequired });
  return next({ ctx: { ...ctx, auth: ctx.auth } });
});
