import { TRPCError } from '@trpc/server';
import { isAppError } from '../lib/app-error.js';
import { trpcCodeOf } from '../lib/error-status.js';

/**
 * Errors thrown inside a subscription's generator bypass the middleware that maps AppErrors,
 * so the generators convert them here (a foreign id must still read NOT_FOUND, not 500).
 */
export function appErrorToTrpc(err: unknown): unknown {
  return isAppError(err) ? new TRPCError({ code: trpcCodeOf[err.code], message: err.message, cause: err }) : err;
}
