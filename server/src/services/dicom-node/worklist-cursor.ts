import { decodeCursorFields, encodeCursorFields } from '../data-access/keyset-cursor-fields.js';

/**
 * Where a worklist page ends, along its order (urgency rank, score desc, received desc, id desc).
 * The timestamp travels as PostgreSQL's own text (microseconds), as history's cursor does; the
 * one cursor parser (data-access/keyset-cursor-fields.ts) checks every field.
 */
export interface TWorklistPosition {
  rank: number;
  score: number;
  createdAt: string;
  id: string;
}

export function encodeWorklistCursor(p: TWorklistPosition): string {
  return encodeCursorFields([p.rank, p.score, p.createdAt, p.id]);
}

export function decodeWorklistCursor(cursor: string | null | undefined): TWorklistPosition | null {
  const fields = decodeCursorFields(cursor, ['int', 'float', 'timestamp', 'uuid']);
  return fields && { rank: fields[0], score: fields[1], createdAt: fields[2], id: fields[3] };
}
