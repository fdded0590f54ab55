/**
 * npm run bench:worklist
 *
 * Seeds a fresh PostgreSQL database with one account's worklist of BENCH_INSTANCES (default
 * 20,000) network instances: a quarter skipped (a CT series), the rest analysed with urgent,
 * review and routine results in turn (issue 36 S5). Prints the median time of worklist.list's
 * service (audit write included, no HTTP) for the first page, the urgent filter, the sent filter
 * and a page 10,000 rows deep. The database is dropped afterwards. BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
import type pg from 'pg';
import { timeCalls } from '../lib/time-calls.js';
import { withBenchDatabase } from '../lib/with-bench-database.js';
import { listWorklist } from '../../server/src/services/dicom-node/list-worklist.js';
import { loadConfig } from '@contracts/config/server-config.js';
import type { TWorklistInput } from '@contracts/schemas/worklist.js';

const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 20_000);

async function seed(client: pg.Client): Promise<string> {
  const [me] = (
    await client.query<{ id: string }>(
      `insert into users (name, email, password_hash) values ('Bench Reader', 'bench-reader@example.org', 'x') returning id`,
    )
  ).rows;
  if (!me) throw new Error('no user');
  const [chat] = (
    await client.query<{ id: string }>(
      `insert into chats (user_id, title, patient) values ($1, 'Bench', '{"full_name":"Bench","age":"50","medical_history":"None"}') returning id`,
      [me.id],
    )
  ).rows;
  // g % 4 = 3: a skipped CT slice; otherwise an analysis, urgent / review / routine by g % 3.
  await client.query(
    `with a as (
       insert into analyses (user_id, chat_id, status, stage, result, triage_assessed, called_labels, any_positive,
                             any_uncertain, lead_display, lead_probability, lead_call, created_at)
       select $1, $2, 'completed', 'done', '{}'::jsonb, true,
              case g % 3 when 0 then '{pneumothorax}'::text[] when 1 then '{edema}'::text[] else '{}'::text[] end,
              g % 3 = 0, false,
              case g % 3 when 0 then 'Pneumothorax' when 1 then 'Edema' end,
              case g % 3 when 0 then 0.5 + (g % 50) / 100.0 when 1 then 0.1 + (g % 30) / 100.0 end,
              case g % 3 when 0 then 'positive' when 1 then 'possible' end,
              now() - g * interval '1 second'
       from generate_series(1, $3) g where g % 4 <> 3
       returning id, created_at)
     insert into dicom_instances (user_id, sop_instance_uid, source, status, modality, analysis_id, created_at, updated_at)
     select $1, '1.2.826.0.1.' || extract(epoch from a.created_at)::bigint, 'dimse', 'analysed', 'DX', a.id, a.created_at, a.created_at from a`,
    [me.id, chat?.id, INSTANCES],
  );
  await client.query(
    `insert into dicom_instances (user_id, sop_instance_uid, source, status, modality, series_instance_uid, created_at, updated_at)
     select $1, '1.2.826.0.2.' || g, 'dimse', 'skipped', 'CT', '1.2.826.0.3', now() - g * interval '1 second', now()
     from generate_series(1, $2) g where g % 4 = 3`,
    [me.id, INSTANCES],
  );
  await client.query('analyze');
  return me.id;
}

async function main(): Promise<void> {
  await withBenchDatabase(async (database, client) => {
    const userId = await seed(client);
    const { db } = database;
    // The embedded defaults, as `npm start` has them: the worklist reads the site's urgent
    // findings against the shipped model (MODEL_DIR), which a hand-made config lacked.
    const config = loadConfig({ WORKLIST_CLAIM_TIMEOUT_MINUTES: '30', LOG_LEVEL: 'silent' });
    const list = (input: TWorklistInput) => listWorklist({ db, config, meta: null, userId, input });
    const counts = await client.query(`select status, count(*)::int n from dicom_instances group by status`);
    console.log(`PostgreSQL worklist of ${INSTANCES} instances:`, counts.rows);

    let cursor: string | null = null;
    for (let i = 0; i < 50; i++) cursor = (await list({ limit: 200, cursor })).nextCursor;
    const deep = cursor;
    const firstPage = await timeCalls('first page (200)', 21, () => list({}));
    const urgent = await timeCalls('urgent filter (first 200)', 21, () => list({ urgencies: ['urgent'] }));
    const sent = await timeCalls('sent filter (none)', 21, () => list({ statuses: ['sent'] }));
    const deepPage = await timeCalls('a page 10,000 rows deep (200)', 21, () => list({ cursor: deep }));
    // The benches' convention: one JSON line last, for a script to read.
    console.log(JSON.stringify({ bench: 'worklist', instances: INSTANCES, firstPage, urgent, sent, deepPage }));
  });
}

await main();
