import { decodeCursorFields, encodeCursorFields } from '../data-access/keyset-cursor-fields.js';

/**
 * Where a worklist page ends, along its order (done 0/1, urgency rank, received asc, id asc).
 * The timestamp travels as PostgreSQL's own text (microseconds), as history's cursor does; the
 * one cursor parser (data-access/keyset-cursor-fields.ts) checks every field.
 */
export interface TWorklistPosition {
  done: number;
  rank: number;
  createdAt: string;
  id: string;
}

export function encodeWorklistCursor(p: TWorklistPosition): string {
  return encodeCursorFields([p.done, p.rank, p.createdAt, p.id]);
}

export function decodeWorklistCursor(cursor: string | null | undefined): TWorklistPosition | null {
  const fields = decodeCursorFields(cursor, ['int', 'int', 'timestamp', 'uuid']);
  return fields && { done: fields[0], rank: fields[1], createdAt: fields[2], id: fields[3] };
}
