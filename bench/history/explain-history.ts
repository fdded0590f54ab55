/**
 * npm run bench:history
 *
 * Seeds a fresh PostgreSQL database with one clinician holding 10,000 chats (two messages and an
 * analysis each) beside 4 other accounts with 2,000 chats each, then prints the EXPLAIN (ANALYZE,
 * BUFFERS) of the queries behind history.list (first page and a deep page), history.get's
 * message page, get-init-info's one-query message fetch and profile.list, and times the
 * services end to end. The database is dropped afterwards.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server;
 * BENCH_CHATS changes the account size.
 */
import { performance } from 'node:perf_hooks';
import { desc, inArray } from 'drizzle-orm';
import type pg from 'pg';
import { timeCalls } from '../lib/time-calls.js';
import { withBenchDatabase } from '../lib/with-bench-database.js';
import { analyses, messages } from '../../server/src/db/schema.js';
import { getChat, messagesOfChats } from '../../server/src/services/history/get-chat.js';
import { getInitInfo } from '../../server/src/services/history/get-init-info.js';
import { decodeCursor } from '../../server/src/services/history/keyset-cursor.js';
import { chatPageQuery, listChats } from '../../server/src/services/history/list-chats.js';
import { listProfiles } from '../../server/src/services/profile/list-profiles.js';

const CHATS = Number(process.env.BENCH_CHATS ?? 10_000);
const OTHER_USERS = 4;
const OTHER_CHATS = 2_000;

async function seed(client: pg.Client): Promise<string> {
  const users = await client.query<{ id: string }>(
    `insert into users (name, email, password_hash)
     select 'Bench User ' || g, 'bench-' || g || '@example.org', 'x' from generate_series(0, $1) g returning id`,
    [OTHER_USERS],
  );
  const ids = users.rows.map((r) => r.id);
  const me = ids[0];
  if (!me) throw new Error('no user');
  for (const [i, userId] of ids.entries()) {
    const n = i === 0 ? CHATS : OTHER_CHATS;
    await client.query(
      `insert into patient_profiles (user_id, full_name, age, custom_fields, created_at)
       select $1, 'Patient ' || g, 20 + g % 60, jsonb_build_object('Symptoms', 'cough'), now() - g * interval '1 hour'
       from generate_series(1, 50) g`,
      [userId],
    );
    // Chats a minute apart, with some sharing a timestamp (ties must page correctly too).
    await client.query(
      `insert into chats (user_id, title, patient, created_at, updated_at)
       select $1, 'Patient ' || g || ' - X-Ray Analysis',
              jsonb_build_object('full_name', 'Patient ' || g, 'age', '50', 'medical_history', 'None'),
              now() - (g / 2) * interval '1 minute', now() - (g / 2) * interval '1 minute'
       from generate_series(1, $2) g`,
      [userId, n],
    );
  }
  await client.query(
    `insert into analyses (user_id, chat_id, status, stage, created_at)
     select user_id, id, 'completed', 'done', created_at from chats`,
  );
  await client.query(
    `insert into messages (chat_id, role, content, disease, created_at)
     select c.id, r.role, r.content, r.disease, c.created_at + r.k * interval '1 second'
     from chats c cross join (values (0, 'user', 'Patient information', null), (1, 'assistant', 'Report', 'Pneumonia')) as r(k, role, content, disease)`,
  );
  await client.query('analyze');
  return me;
}

async function explain(client: pg.Client, title: string, q: { sql: string; params: unknown[] }): Promise<void> {
  const res = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q.sql}`, q.params);
  console.log(`\n== ${title}\n${q.sql.replace(/(\$\d+, ){8,}\$\d+/g, (m) => `$1 ... $${m.split(',').length}`)}\n`);
  // Long id lists shortened so the plan stays readable.
  const short = (line: string) => line.replace(/'\{[0-9a-f,-]{200,}\}'/g, (m) => `'{${m.split(',').length} ids}'`);
  for (const row of res.rows) console.log(short(row['QUERY PLAN']));
}

async function main(): Promise<void> {
  await withBenchDatabase(async (database, client) => {
    const version = await client.query<{ server_version: string }>('show server_version');
    const t0 = performance.now();
    const me = await seed(client);
    const counts = await client.query<{ chats: string; mine: string; messages: string }>(
      `select (select count(*) from chats) chats, (select count(*) from chats where user_id = $1) mine, (select count(*) from messages) messages`,
      [me],
    );
    console.log(
      `PostgreSQL ${version.rows[0]?.server_version}; seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s:`,
      counts.rows[0],
    );

    const { db } = database;
    const first = await listChats({ db, meta: null, userId: me, limit: 30 });
    // A cursor deep in the account: the page after the 9,000th chat.
    let deepCursor = first.nextCursor;
    for (let i = 0; i < Math.floor((CHATS * 0.9) / 100) && deepCursor; i++) {
      deepCursor = (await listChats({ db, meta: null, userId: me, limit: 100, cursor: deepCursor })).nextCursor;
    }
    const chatId = first.items[0]?.id;
    if (!chatId) throw new Error('no chats');

    await explain(
      client,
      'history.list, first page (30 + 1 rows)',
      chatPageQuery({ db, userId: me, after: null, take: 31 }).toSQL(),
    );
    await explain(
      client,
      'history.list, a page ~9,000 chats deep',
      chatPageQuery({ db, userId: me, after: decodeCursor(deepCursor), take: 31 }).toSQL(),
    );
    const pageIds = first.items.map((c) => c.id);
    await explain(
      client,
      'history.list, latest analysis of the page (one query)',
      db
        .selectDistinctOn([analyses.chatId], { chatId: analyses.chatId, status: analyses.status })
        .from(analyses)
        .where(inArray(analyses.chatId, pageIds))
        .orderBy(analyses.chatId, desc(analyses.createdAt), desc(analyses.id))
        .toSQL(),
    );
    const initPage = await chatPageQuery({ db, userId: me, after: null, take: 200 });
    await explain(
      client,
      'get-init-info, messages of 200 chats (one query)',
      db
        .select({ id: messages.id })
        .from(messages)
        .where(
          inArray(
            messages.chatId,
            initPage.map((c) => c.id),
          ),
        )
        .orderBy(messages.chatId, messages.createdAt, messages.id)
        .toSQL(),
    );

    console.log(
      '\n== service timings (same process, local server, no HTTP; service calls include their audit-log write, "query only" rows do not)',
    );
    await timeCalls('query only: chat page (31 rows), first page', 200, () =>
      chatPageQuery({ db, userId: me, after: null, take: 31 }),
    );
    await timeCalls('query only: chat page (31 rows), ~9,000 deep', 200, () =>
      chatPageQuery({ db, userId: me, after: decodeCursor(deepCursor), take: 31 }),
    );
    await timeCalls('history.list first page (30 chats + latest analyses)', 200, () =>
      listChats({ db, meta: null, userId: me, limit: 30 }),
    );
    await timeCalls('history.list page ~9,000 chats deep', 200, () =>
      listChats({ db, meta: null, userId: me, limit: 30, cursor: deepCursor }),
    );
    await timeCalls('history.get (chat + 50 messages)', 200, () =>
      getChat({ db, meta: null, userId: me, chatId, limit: 50 }),
    );
    await timeCalls('get-init-info (200 chats, 400 messages, 2 queries)', 50, () =>
      getInitInfo({ db, meta: null, userId: me }),
    );
    await timeCalls('messagesOfChats alone (200 chats)', 50, () =>
      messagesOfChats({ db, chatIds: initPage.map((c) => c.id) }),
    );
    await timeCalls('profile.list (50 profiles)', 200, () => listProfiles({ db, meta: null, userId: me, limit: 100 }));
  });
}

await main();
