import { TRPCClientError } from '@trpc/client';
import { HttpError } from './http-error';

/** Section 8: no response at all. */
export const NETWORK_ERROR = 'Network error. Please check your connection and try again.';

export interface TErrorInfo {
  /** True when no response arrived (server down, connection lost). */
  network: boolean;
  /** HTTP status of the answer, or null. */
  status: number | null;
  /** The server's application code (AppError code, e.g. WRONG_PASSWORD), or null. */
  code: string | null;
  /** The server's safe message, or null. */
  message: string | null;
}

interface TErrorData {
  httpStatus?: number;
  appCode?: string;
  code?: string;
}

function dataOf(err: TRPCClientError<never>): TErrorData | null {
  const data: unknown = err.data;
  return data && typeof data === 'object' ? (data as TErrorData) : null;
}

/** What a failed tRPC call (or plain-HTTP `HttpError`) tells us, in one shape every screen reads. */
export function errorInfo(err: unknown): TErrorInfo {
  if (err instanceof HttpError) {
    return err.status === 0
      ? { network: true, status: null, code: null, message: null }
      : { network: false, status: err.status, code: null, message: err.message };
  }
  if (!(err instanceof TRPCClientError)) {
    return { network: false, status: null, code: null, message: null };
  }
  const e = err as TRPCClientError<never>;
  const data = dataOf(e);
  const meta: unknown = e.meta;
  const response =
    meta && typeof meta === 'object' && 'response' in meta ? (meta as { response?: Response }).response : undefined;
  if (!data && !response) return { network: true, status: null, code: null, message: null };
  const status = data?.httpStatus ?? response?.status ?? null;
  return {
    network: false,
    status,
    code: data?.appCode ?? data?.code ?? null,
    message: data ? e.message || null : null,
  };
}

export function isUnauthorized(err: unknown): boolean {
  const info = errorInfo(err);
  return info.status === 401 || info.code === 'UNAUTHORIZED';
}

/**
 * The one mapping from a failed call to toast text (section 8's pattern): no response gives the
 * network text; a per-screen override by app code or HTTP status wins (e.g. WRONG_PASSWORD gives
 * 'Current password is incorrect'); otherwise the server's safe message; for 5xx and anything
 * without a message, the screen's fixed fallback.
 */
export function errorText(err: unknown, fallback: string, overrides: Record<string, string> = {}): string {
  const info = errorInfo(err);
  if (info.network) return NETWORK_ERROR;
  const byCode = info.code ? overrides[info.code] : undefined;
  if (byCode) return byCode;
  const byStatus = info.status !== null ? overrides[String(info.status)] : undefined;
  if (byStatus) return byStatus;
  if (info.status !== null && info.status >= 500) return fallback;
  return info.message ?? fallback;
}
