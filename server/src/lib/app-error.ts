/**
 * The one error type services throw. Codes, not HTTP statuses: the tRPC error formatter and the
 * REST shims each map a code to their own status in one place (error-status.ts).
 */
export type TAppErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'WRONG_PASSWORD'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA'
  | 'TOO_MANY_REQUESTS'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export class AppError extends Error {
  readonly code: TAppErrorCode;
  /** Safe to show to the user; never contains patient data. */
  override readonly message: string;

  constructor(code: TAppErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.message = message;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
