import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../server/src/db/client.js';
import {
  MIGRATIONS_DIR,
  PG_TEMPLATE_ENV,
  PGLITE_SNAPSHOT_ENV,
  createPostgresDatabase,
} from '../helpers/test-config.js';

/**
 * Global setup (issue 40): migrate once per run, then every test database is a copy. Migrating
 * a fresh PGlite took about 12 s of each app's boot on a busy 2-core machine, loading a dumped
 * migrated data directory about 2 s; PostgreSQL clones a template database in a fraction of
 * its migration. The helpers (tests/helpers/test-config.ts) read what this exports through the
 * environment the worker forks inherit, and fall back to migrating when it is unset (a file run
 * outside vitest's projects). Migrations from empty stay tested: here on every run, on both
 * backends, and by tests/foundation/migrations.test.ts.
 */
export default async function setup(): Promise<() => Promise<void>> {
  process.env[PGLITE_SNAPSHOT_ENV] = await pgliteSnapshot();
  if (!process.env.TEST_DATABASE_URL) return async () => undefined;
  // Its own template per run: six runs on one server must not clone or drop each other's.
  const template = await createPostgresDatabase({ from: 'empty' });
  const database = await openDatabase({ url: template.url, pgliteDir: 'memory://' });
  await database.close();
  // Cloned only while nobody is connected to it: its pool is closed above, and no test opens it.
  process.env[PG_TEMPLATE_ENV] = new URL(template.url).pathname.slice(1);
  return template.drop;
}

/**
 * A migrated PGlite data directory, dumped to a file named after the migrations and PGlite's
 * version: kept between runs (and worktrees), rebuilt when either changes.
 */
async function pgliteSnapshot(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(JSON.parse(readFileSync('node_modules/@electric-sql/pglite/package.json', 'utf8')).version);
  for (const name of readdirSync(MIGRATIONS_DIR, { recursive: true, encoding: 'utf8' }).sort()) {
    if (name.endsWith('.sql') || name.endsWith('.json'))
      hash.update(name).update(readFileSync(join(MIGRATIONS_DIR, name)));
  }
  const path = join(tmpdir(), `cxr-pglite-migrated-${hash.digest('hex').slice(0, 16)}.tar`);
  if (existsSync(path)) return path;
  const database = await openDatabase({ pgliteDir: 'memory://' });
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  await database.close();
  // Written aside and renamed: a parallel run never reads half a file.
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, path);
  return path;
}
