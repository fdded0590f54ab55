import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/client.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type TBenchDatabase = Awaited<ReturnType<typeof openDatabase>>;

/**
 * Runs `work` on a throwaway PostgreSQL database (migrated by openDatabase), with a raw pg client
 * for fast seeding beside the app's own handle; the database is dropped afterwards, whatever happens.
 */
export async function withBenchDatabase<T>(
  work: (database: TBenchDatabase, client: pg.Client) => Promise<T>,
): Promise<T> {
  const name = `cxr_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), pgliteDir: 'memory://' });
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(database, client);
  } finally {
    await client.end();
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
