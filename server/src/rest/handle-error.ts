import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { isAppError } from '../lib/app-error.js';
import { asUnavailable } from '../lib/dependency-down.js';
import { httpStatusOf } from '../lib/error-status.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The spec's message for an unexpected failure of this call (default: a generic one). */
    failMessage?: string;
  }
}

const INTERNAL_MESSAGE = 'Internal server error';
// Fastify's own wording for these names its internals; the spec's clients show the message.
const FRAMEWORK_MESSAGES: Record<number, string> = { 413: 'Request too large', 415: 'Unsupported content type' };

function send(reply: FastifyReply, status: number, message: string, code: string): FastifyReply {
  return reply.status(status).send({ success: false, message, code });
}

/**
 * The app's one error path (REST and everything else Fastify answers): the spec's envelope
 * `{ success: false, message, code }`. A validation failure answers its first message (the
 * shared schemas carry the spec's strings); an AppError its safe message; a 5xx never carries
 * details, which go to the log through the error serializer (no query parameters).
 */
export function handleError(error: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return send(reply, 400, error.validation[0]?.message ?? 'Invalid request', 'BAD_REQUEST');
  }
  if (error instanceof ZodError) return send(reply, 400, error.issues[0]?.message ?? 'Invalid request', 'BAD_REQUEST');
  // The database or image store went away: a generic 503, logged as a warning, not as a bug.
  const down = asUnavailable(error);
  if (down) req.log.warn({ err: error }, 'dependency unavailable');
  const err = down ?? error;
  if (isAppError(err)) {
    if (err.code === 'INTERNAL') req.log.error({ err }, 'internal error');
    return send(reply, httpStatusOf[err.code], err.message, err.code);
  }
  // Fastify's and its plugins' client errors (bad JSON, 413, 415, the rate limit's 429).
  const { statusCode, message, code } = err as Partial<FastifyError>;
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    return send(
      reply,
      statusCode,
      FRAMEWORK_MESSAGES[statusCode] ?? message ?? 'Invalid request',
      code ?? 'BAD_REQUEST',
    );
  }
  req.log.error({ err }, 'unhandled error');
  return send(reply, 500, req.routeOptions.config.failMessage ?? INTERNAL_MESSAGE, 'INTERNAL');
}
