import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { TDb } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { isUuid } from './is-uuid.js';

/** A table whose rows belong to one account. */
export type TOwnedTable = PgTable & { id: PgColumn; userId: PgColumn };

/**
 * The WHERE clause "this id, owned by userId", for an UPDATE or DELETE that checks ownership in
 * its own statement (no window between check and write). Throws `notFound` for a malformed id,
 * so it answers like a missing one.
 */
export function ownedRow(table: TOwnedTable, id: string, userId: string, notFound: string): SQL {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', notFound);
  return and(eq(table.id, id), eq(table.userId, userId))!;
}

/**
 * One row of userId's by id, with the given columns. Missing, malformed and foreign ids all throw
 * the same NOT_FOUND (`notFound` is the message), so nobody learns that another account's row
 * exists.
 */
export async function findOwned<TColumns extends SelectedFields>(opts: {
  db: TDb;
  table: TOwnedTable;
  id: string;
  userId: string;
  columns: TColumns;
  notFound: string;
}): Promise<SelectResultFields<TColumns>> {
  const { db, table, columns, notFound } = opts;
  const where = ownedRow(table, opts.id, opts.userId, notFound);
  // A generic table defeats drizzle's inference; the row has exactly the selected columns.
  const rows = (await db
    .select(columns)
    .from(table as PgTable)
    .where(where)
    .limit(1)) as SelectResultFields<TColumns>[];
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', notFound);

  return row;
}
