import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import type { TAppErrorCode } from './app-error.js';

/** HTTP status for each application error code (REST shims and tRPC alike). */
export const httpStatusOf: Record<TAppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  // A wrong current password must not look like an expired session (401 logs the client out).
  WRONG_PASSWORD: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  TOO_MANY_REQUESTS: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export const trpcCodeOf: Record<TAppErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  WRONG_PASSWORD: 'FORBIDDEN',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA: 'UNSUPPORTED_MEDIA_TYPE',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
};
