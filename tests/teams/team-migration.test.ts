import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, test } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { isNotNull, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../../server/src/db/schema.js';
import type { TDb } from '../../server/src/db/client.js';
import { getOwnedChat } from '../../server/src/services/history/get-owned-chat.js';
import { preparedChatPage } from '../../server/src/services/history/list-chats.js';
import { getOwnedProfile } from '../../server/src/services/profile/get-owned-profile.js';
import { createPostgresDatabase, testBackends } from '../helpers/test-config.js';

const MIGRATIONS = fileURLToPath(new URL('../../server/src/db/migrations', import.meta.url));
/** The last migration before teams: the schema every install had before issue 32. */
const BEFORE_TEAMS = '0007_site_settings';

/** A copy of the migrations folder that stops at BEFORE_TEAMS. */
async function migrationsBeforeTeams(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cxr-mig-'));
  await cp(MIGRATIONS, dir, { recursive: true });
  const journal = JSON.parse(await readFile(join(dir, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const last = journal.entries.findIndex((e) => e.tag === BEFORE_TEAMS);
  assert.ok(last >= 0 && last < journal.entries.length - 1, 'the teams migration comes after it');
  journal.entries = journal.entries.slice(0, last + 1);
  await writeFile(join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  return dir;
}

/** Rows as today's schema has them, written in plain SQL (no column the teams migration adds). */
async function seedTodaysRows(run: (q: string) => Promise<unknown>) {
  await run(`insert into users (id, name, email, password_hash) values
    ('11111111-1111-4111-8111-111111111111', 'Dr Old', 'old@example.org', 'x'),
    ('22222222-2222-4222-8222-222222222222', 'Dr Other', 'other@example.org', 'x')`);
  await run(`insert into patient_profiles (id, user_id, full_name, age) values
    ('33333333-3333-4333-8333-333333333333', '11111111-1111-4111-8111-111111111111', 'Old Patient', 60)`);
  await run(`insert into chats (id, user_id, profile_id, title, patient) values
    ('44444444-4444-4444-8444-444444444444', '11111111-1111-4111-8111-111111111111',
     '33333333-3333-4333-8333-333333333333', 'Old chat', '{"full_name":"Old Patient","age":"60","medical_history":"None"}')`);
  await run(`insert into dicom_instances (user_id, sop_instance_uid, source) values
    ('11111111-1111-4111-8111-111111111111', '1.2.3', 'dimse')`);
}

async function assertReadableByOwnerOnly(db: TDb) {
  const owner = '11111111-1111-4111-8111-111111111111';
  const other = '22222222-2222-4222-8222-222222222222';
  const chat = await getOwnedChat({ db, userId: owner, chatId: '44444444-4444-4444-8444-444444444444' });
  assert.equal(chat.title, 'Old chat');
  const profile = await getOwnedProfile({ db, userId: owner, profileId: '33333333-3333-4333-8333-333333333333' });
  assert.equal(profile.fullName, 'Old Patient');
  const page = await preparedChatPage({ db, userId: owner, after: null, take: 10 });
  assert.deepEqual(
    page.map((c) => c.id),
    ['44444444-4444-4444-8444-444444444444'],
  );
  await assert.rejects(getOwnedChat({ db, userId: other, chatId: chat.id }), /Chat not found/);
  assert.deepEqual(await preparedChatPage({ db, userId: other, after: null, take: 10 }), []);
  // Every pre-existing row is in its owner's personal space.
  const teamRows = await db.select({ id: schema.chats.id }).from(schema.chats).where(isNotNull(schema.chats.teamId));
  assert.deepEqual(teamRows, []);
  // The same SOP instance may now arrive again for a team, but not twice for the same account.
  await assert.rejects(
    db.execute(
      sql`insert into dicom_instances (user_id, sop_instance_uid, source) values (${owner}, '1.2.3', 'dimse')`,
    ),
  );
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

describe('the teams migration keeps every existing row readable by its owner', () => {
  for (const backend of testBackends()) {
    test(`on ${backend}: today's schema, seeded, then migrated`, async () => {
      const before = await migrationsBeforeTeams();
      cleanups.push(() => rm(before, { recursive: true, force: true }));
      if (backend === 'pglite') {
        const client = await PGlite.create('memory://');
        cleanups.push(() => client.close());
        const db = drizzlePglite(client, { schema });
        await migratePglite(db, { migrationsFolder: before });
        await seedTodaysRows((q) => client.exec(q));
        await migratePglite(db, { migrationsFolder: MIGRATIONS });
        await assertReadableByOwnerOnly(db as unknown as TDb);
      } else {
        const pgdb = await createPostgresDatabase({ from: 'empty' });
        const pool = new pg.Pool({ connectionString: pgdb.url });
        cleanups.push(async () => {
          await pool.end();
          await pgdb.drop();
        });
        const db = drizzlePg(pool, { schema });
        await migratePg(db, { migrationsFolder: before });
        await seedTodaysRows((q) => pool.query(q));
        await migratePg(db, { migrationsFolder: MIGRATIONS });
        await assertReadableByOwnerOnly(db as unknown as TDb);
      }
    });
  }
});
