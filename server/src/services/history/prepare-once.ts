import type { TDb } from '../../db/client.js';

/**
 * A statement prepared once per database handle instead of built on every request: drizzle
 * rebuilds a query's SQL text from its builder each time it runs (a measurable share of a hot
 * read's CPU), and a named statement lets PostgreSQL skip parsing it again on each connection.
 * Keyed by the handle (like the audit batcher) so services keep taking just `db`.
 */
export function preparedPerDb<T>(build: (db: TDb) => T): (db: TDb) => T {
  const prepared = new WeakMap<TDb, T>();
  return (db) => {
    let statement = prepared.get(db);
    if (!statement) {
      statement = build(db);
      prepared.set(db, statement);
    }
    return statement;
  };
}
