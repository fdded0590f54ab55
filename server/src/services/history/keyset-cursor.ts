import { AppError } from '../../lib/app-error.js';
import { isUuid } from '../data-access/is-uuid.js';

/**
 * Opaque cursors for keyset pagination over (created_at, id). The timestamp travels as
 * PostgreSQL's own text (microseconds): a JS Date keeps only milliseconds, and rounding would
 * skip or repeat rows created within the same millisecond.
 */
export interface TKeysetPosition {
  createdAt: string;
  id: string;
}

export function encodeCursor(pos: TKeysetPosition): string {
  return Buffer.from(JSON.stringify([pos.createdAt, pos.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): TKeysetPosition | null {
  if (!cursor) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [createdAt, id] = parsed as unknown[];
      if (
        typeof createdAt === 'string' &&
        typeof id === 'string' &&
        isUuid(id) &&
        !Number.isNaN(Date.parse(createdAt))
      ) {
        return { createdAt, id };
      }
    }
  } catch {
    // fall through: any undecodable cursor is the same client error
  }
  throw new AppError('BAD_REQUEST', 'Invalid cursor');
}
