import { AppError } from '../../lib/app-error.js';
import { isUuid } from '../data-access/is-uuid.js';

/**
 * Where a worklist page ends, along its order (urgency rank, score desc, received desc, id desc).
 * The timestamp travels as PostgreSQL's own text (microseconds), as history's cursor does.
 */
export interface TWorklistPosition {
  rank: number;
  score: number;
  createdAt: string;
  id: string;
}

export function encodeWorklistCursor(p: TWorklistPosition): string {
  return Buffer.from(JSON.stringify([p.rank, p.score, p.createdAt, p.id]), 'utf8').toString('base64url');
}

export function decodeWorklistCursor(cursor: string | null | undefined): TWorklistPosition | null {
  if (!cursor) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 4) {
      const [rank, score, createdAt, id] = parsed as unknown[];
      if (
        Number.isInteger(rank) &&
        typeof score === 'number' &&
        Number.isFinite(score) &&
        typeof createdAt === 'string' &&
        !Number.isNaN(Date.parse(createdAt)) &&
        typeof id === 'string' &&
        isUuid(id)
      )
        return { rank: rank as number, score, createdAt, id };
    }
  } catch {
    // fall through: any undecodable cursor is the same client error
  }
  throw new AppError('BAD_REQUEST', 'Invalid cursor');
}
