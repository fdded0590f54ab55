import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.js';

export type TSchema = typeof schema;
/** Both drivers produce this type, so services never know which one they talk to. */
export type TDb = PgDatabase<PgQueryResultHKT, TSchema>;

export interface Database {
  db: TDb;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface DatabaseOptions {
  /** postgres:// URL of a server; unset means embedded PGlite. */
  url?: string | undefined;
  /** PGlite data directory, or 'memory://' for a throwaway database. */
  pgliteDir: string;
  /**
   * A dumped data directory (PGlite's dumpDataDir) to start a new database from (in memory, or a
   * directory that holds none yet) instead of an empty one: the tests copy one template migrated
   * per run rather than migrate every database again (tests/setup/database-templates.ts).
   * Migrations still run after it, finding none due.
   */
  pgliteSnapshot?: Blob | undefined;
}

/** Opens the database and applies every pending migration (the same files on both drivers). */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 20, connectionTimeoutMillis: 5000 });
    // An idle client losing its server must not crash the process; queries will fail and retry.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return {
      db: db as unknown as TDb,
      kind: 'postgres',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  if (!opts.pgliteDir.startsWith('memory://')) mkdirSync(opts.pgliteDir, { recursive: true });
  const fresh = opts.pgliteDir.startsWith('memory://') || !existsSync(join(opts.pgliteDir, 'PG_VERSION'));
  const client =
    opts.pgliteSnapshot && fresh
      ? await PGlite.create({ dataDir: opts.pgliteDir, loadDataDir: opts.pgliteSnapshot })
      : await PGlite.create(opts.pgliteDir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as TDb,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
}
