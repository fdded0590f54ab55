import { decodeCursor, encodeCursor, type TKeysetPosition } from '../history/keyset-cursor.js';

export interface TKeysetPage<TRow> {
  rows: TRow[];
  /** The opaque cursor of the next page; null when this was the last. */
  nextCursor: string | null;
}

/**
 * One keyset page: decodes the cursor, fetches one row more than `limit` (so the last page is
 * known without a count), and encodes the next cursor from the last row kept. `fetch` owns the
 * ORDER BY and the "after this position" predicate, which must match the index it pages along.
 * Rows carry `cursorTs`, created_at as PostgreSQL's text (microseconds; a Date would round).
 */
export async function keysetPage<TRow extends { id: string; cursorTs: string }>(
  cursor: string | null | undefined,
  limit: number,
  fetch: (after: TKeysetPosition | null, take: number) => Promise<TRow[]>,
): Promise<TKeysetPage<TRow>> {
  const rows = await fetch(decodeCursor(cursor), limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.cursorTs, id: last.id }) : null,
  };
}
