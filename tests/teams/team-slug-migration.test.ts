import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, test } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../../server/src/db/schema.js';
import { teamSlug } from '@contracts/schemas/team.js';
import { createPostgresDatabase, testBackends } from '../helpers/test-config.js';

const MIGRATIONS = fileURLToPath(new URL('../../server/src/db/migrations', import.meta.url));
const BEFORE_SLUGS = '0015_reports';

/** A copy of the migrations folder that stops before the slug migration (0016). */
async function migrationsBeforeSlugs(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cxr-mig-'));
  await cp(MIGRATIONS, dir, { recursive: true });
  const journal = JSON.parse(await readFile(join(dir, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === BEFORE_SLUGS);
  assert.ok(last >= 0 && last < journal.entries.length - 1);
  journal.entries = journal.entries.slice(0, last + 1);
  await writeFile(join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  return dir;
}

/** Teams as an install had them, the scan's collision included ("Radiology", then "RADIOLOGY!"). */
const SEED = `insert into teams (id, name, created_at) values
  ('aaaaaaaa-0000-4000-8000-000000000001', 'Radiology', now() - interval '2 days'),
  ('bbbbbbbb-0000-4000-8000-000000000002', 'RADIOLOGY!', now() - interval '1 day'),
  ('cccccccc-0000-4000-8000-000000000003', 'Émergency Dept.', now()),
  ('dddddddd-0000-4000-8000-000000000004', '---', now())`;

const EXPECTED = [
  ['Radiology', 'radiology'],
  ['RADIOLOGY!', 'radiology-bbbbbbbb'],
  ['Émergency Dept.', 'emergency-dept'],
  ['---', 'team-dddddddd'],
];

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

describe('migration 0016 gives every team a unique slug', () => {
  for (const backend of testBackends()) {
    test(`on ${backend}: the oldest keeps a shared slug, the others get their id after it`, async () => {
      const before = await migrationsBeforeSlugs();
      cleanups.push(() => rm(before, { recursive: true, force: true }));
      let query: (q: string) => Promise<{ rows: unknown[] }>;
      if (backend === 'pglite') {
        const client = await PGlite.create('memory://');
        cleanups.push(() => client.close());
        const db = drizzlePglite(client, { schema });
        await migratePglite(db, { migrationsFolder: before });
        await client.exec(SEED);
        await migratePglite(db, { migrationsFolder: MIGRATIONS });
        query = (q) => client.query(q);
      } else {
        // Empty, not the migrated template: the migrations before 0016 run first, then the seed.
        const pgdb = await createPostgresDatabase({ from: 'empty' });
        const pool = new pg.Pool({ connectionString: pgdb.url });
        cleanups.push(async () => {
          await pool.end();
          await pgdb.drop();
        });
        const db = drizzlePg(pool, { schema });
        await migratePg(db, { migrationsFolder: before });
        await pool.query(SEED);
        await migratePg(db, { migrationsFolder: MIGRATIONS });
        query = (q) => pool.query(q);
      }
      const rows = (await query('select name, slug from teams order by id')).rows as { name: string; slug: string }[];
      assert.deepEqual(
        rows.map((r) => [r.name, r.slug]),
        EXPECTED,
      );
      // The SQL computes what teamSlug() does, so the map finds migrated teams as it finds new ones.
      assert.equal(teamSlug('Émergency Dept.'), 'emergency-dept');
      await assert.rejects(query(`insert into teams (name, slug) values ('Radiology?', 'radiology')`));
    });
  }
});
