import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/src/db/client.js';
import { MIGRATIONS_DIR, createPostgresDatabase, pgliteSnapshot, testBackends } from '../helpers/test-config.js';

/**
 * Test databases are copies of one template migrated per run (tests/setup/database-templates.ts),
 * so no app's boot migrates any more. The migrations themselves are tested here: from an empty
 * database on each backend, every one applies, and they give exactly the schema the copies have.
 */
const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function open(backend: string, from: 'empty' | 'template'): Promise<Database> {
  const pgdb = backend === 'postgres' ? await createPostgresDatabase({ from }) : null;
  const database = await openDatabase({
    url: pgdb?.url,
    pgliteDir: 'memory://',
    pgliteSnapshot: from === 'template' ? pgliteSnapshot() : undefined,
  });
  cleanups.push(async () => {
    await database.close();
    await pgdb?.drop();
  });
  return database;
}

/** The rows of a raw query (both drivers answer `{ rows }`; drizzle's type leaves it unknown). */
async function rowsOf<T>(database: Database, query: SQL): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Every column, index and trigger outside the system schemas, with types and defaults. */
async function schemaOf(database: Database): Promise<string[]> {
  const columns = await rowsOf<{ c: string }>(
    database,
    sql`
    select table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' ' ||
           is_nullable || ' ' || coalesce(column_default, '') as c
      from information_schema.columns
     where table_schema not in ('pg_catalog', 'information_schema')
     order by 1`,
  );
  const indexes = await rowsOf<{ c: string }>(
    database,
    sql`
    select schemaname || ' ' || indexdef as c from pg_indexes
     where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const triggers = await rowsOf<{ c: string }>(
    database,
    sql`
    select tgname || ' on ' || tgrelid::regclass::text as c from pg_trigger where not tgisinternal order by 1`,
  );
  return [...columns, ...indexes, ...triggers].map((r) => r.c);
}

for (const backend of testBackends()) {
  describe(`migrations on ${backend}`, () => {
    test('apply, one by one, to an empty database', async () => {
      const database = await open(backend, 'empty');
      const applied = await rowsOf<{ n: number }>(
        database,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      assert.equal(applied[0]?.n, journal.entries.length);
      assert.ok(journal.entries.length >= 15, 'the journal lists the migrations');
    });

    test('give the schema every test database is copied from', async () => {
      if (backend === 'pglite') assert.ok(pgliteSnapshot(), 'the global setup dumped a migrated PGlite');
      else assert.ok(process.env.TEST_PG_TEMPLATE, 'the global setup made a PostgreSQL template');
      const fromEmpty = await schemaOf(await open(backend, 'empty'));
      const copied = await schemaOf(await open(backend, 'template'));
      assert.ok(fromEmpty.length > 100, `a whole schema, not ${fromEmpty.length} lines`);
      assert.deepEqual(copied, fromEmpty);
    });
  });
}
