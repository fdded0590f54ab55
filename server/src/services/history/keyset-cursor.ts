import { decodeCursorFields, encodeCursorFields } from '../data-access/keyset-cursor-fields.js';

/**
 * Opaque cursors for keyset pagination over (created_at, id). The timestamp travels as
 * PostgreSQL's own text (microseconds): a JS Date keeps only milliseconds, and rounding would
 * skip or repeat rows created within the same millisecond. Parsed and range-checked by the one
 * cursor parser (data-access/keyset-cursor-fields.ts).
 */
export interface TKeysetPosition {
  createdAt: string;
  id: string;
}

export function encodeCursor(pos: TKeysetPosition): string {
  return encodeCursorFields([pos.createdAt, pos.id]);
}

export function decodeCursor(cursor: string | null | undefined): TKeysetPosition | null {
  const fields = decodeCursorFields(cursor, ['timestamp', 'uuid']);
  return fields && { createdAt: fields[0], id: fields[1] };
}
