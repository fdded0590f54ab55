import { PGlite } from '@electric-sql/pglite';
import { Placeholder } from 'drizzle-orm';
import pg from 'pg';
import type { TDb } from './client.js';

interface TBuiltQuery {
  toSQL(): { sql: string; params: unknown[] };
}

/**
 * A statement that drizzle builds once (with `sql.placeholder`s) and the driver runs with rows as
 * arrays, which the caller maps column by column. Only for the hottest reads: drizzle's own
 * result mapping checks every column's entity class on every row, and on history.list (30 rows
 * a call) that was the largest single share of the server's CPU in `npm run bench:rps`. On
 * PostgreSQL the statement is named, so each pooled connection parses and plans it once. Both
 * drivers parse column types the same way (uuid/text as strings, timestamptz as Date, jsonb as
 * values), which tests/history/array-row-statement.test.ts holds against drizzle's own select.
 */
export function arrayRowStatement<TParams extends Record<string, unknown>>(
  name: string,
  build: (db: TDb) => TBuiltQuery,
): (db: TDb, params: TParams) => Promise<unknown[][]> {
  const built = new WeakMap<TDb, { sql: string; params: unknown[] }>();
  return async (db, params) => {
    let query = built.get(db);
    if (!query) {
      query = build(db).toSQL();
      built.set(db, query);
    }
    const values = query.params.map((p) => (p instanceof Placeholder ? params[p.name as keyof TParams] : p));
    const client: unknown = (db as unknown as { $client: unknown }).$client;
    if (client instanceof pg.Pool) {
      return (await client.query<unknown[]>({ name, text: query.sql, values, rowMode: 'array' })).rows;
    }
    if (client instanceof PGlite) return (await client.query<unknown[]>(query.sql, values, { rowMode: 'array' })).rows;
    throw new Error(`${name}: not a database handle from openDatabase()`);
  };
}
