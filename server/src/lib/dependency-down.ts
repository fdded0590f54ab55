import { AppError } from './app-error.js';

export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a minute.';

// Socket errors, PostgreSQL's "connection exception" / "operator intervention" classes, and
// image storage that is full or read-only.
const CODES = new Set([
  'ENOSPC',
  'EROFS',
  'EDQUOT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08006',
]);
const MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|connection error|connection is closed|Connection is closed/i;

/**
 * True when an error (or one of its causes) means a backing service (PostgreSQL, image storage)
 * cannot be used: the request deserves a generic 503 "try again", not a 500 that suggests a bug.
 */
export function isDependencyDown(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && e && typeof e === 'object'; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && CODES.has(code)) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    e = cause;
  }
  return false;
}

/** The AppError to answer instead, or null when the error is something else. */
export function asUnavailable(err: unknown): AppError | null {
  if (err instanceof AppError && err.code !== 'INTERNAL') return null;
  return isDependencyDown(err) ? new AppError('UNAVAILABLE', UNAVAILABLE_MESSAGE, { cause: err }) : null;
}
