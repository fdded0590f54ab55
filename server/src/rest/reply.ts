import type { FastifyReply } from 'fastify';
import { ZodError, type z } from 'zod';
import { AppError, isAppError } from '../lib/app-error.js';
import { asUnavailable } from '../lib/dependency-down.js';
import { httpStatusOf } from '../lib/error-status.js';

/** Parses a body with the shared zod schema; failures become the spec's first message. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new AppError('BAD_REQUEST', parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data;
}

/** The spec's error envelope: `{ success: false, message }`; 5xx never carries details. */
export function sendError(reply: FastifyReply, err: unknown): FastifyReply {
  // The database went away: a generic 503, logged once as a warning rather than as a bug.
  const down = asUnavailable(err);
  if (down) reply.log.warn({ err: rootMessage(err) }, 'dependency unavailable');
  err = down ?? err;
  if (isAppError(err)) {
    return reply.status(httpStatusOf[err.code]).send({ success: false, message: err.message, code: err.code });
  }
  if (err instanceof ZodError) {
    return reply.status(400).send({ success: false, message: err.issues[0]?.message ?? 'Invalid request', code: 'BAD_REQUEST' });
  }
  reply.log.error({ err }, 'unhandled error');
  return reply.status(500).send({ success: false, message: 'Internal server error', code: 'INTERNAL' });
}

/** The innermost cause's message: the wrapper's is the user-facing one, the cause says why. */
function rootMessage(err: unknown): string {
  let e = err as { message?: string; cause?: unknown };
  for (let i = 0; i < 6 && e.cause && typeof e.cause === 'object'; i++) e = e.cause as typeof e;
  return String(e.message);
}
