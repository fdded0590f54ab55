import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { rm } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrivateRedis } from '../../scripts/lib/private-redis.js';
import { openDatabase } from '../../server/src/db/client.js';
import { createUser } from '../../tests/helpers/factories.js';
import { CXR_FIXTURE, sqlClient, startStack, uploadXray, type TProc } from '../../tests/helpers/fault-procs.js';
import { createPostgresDatabase, testConfig } from '../../tests/helpers/test-config.js';
import { fmt, percentile, rssMiB } from './stats.js';

/**
 * npm run bench:load: USERS users submit ANALYSES analyses at once against the real server and
 * WORKERS worker processes (private Redis with AOF, a throwaway PostgreSQL database). Checks
 * that every analysis completes exactly once (one report message each), prints upload latency,
 * end-to-end throughput, the latency and rate of a read call (tRPC history.list) made during
 * the burst, and the RSS of every process sampled every 500 ms.
 * Needs PostgreSQL: TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 */
const USERS = Number(process.env.USERS ?? 20);
const ANALYSES = Number(process.env.ANALYSES ?? 200);
const WORKERS = Number(process.env.WORKERS ?? 2);
const READERS = Number(process.env.READERS ?? 4);
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

async function main(): Promise<void> {
  const pgdb = await createPostgresDatabase();
  const redisDir = mkdtempSync(join(tmpdir(), 'cxr-bench-redis-'));
  const redis = await startPrivateRedis(redisDir);
  const stack = await startStack({
    redisUrl: redis.url,
    databaseUrl: pgdb.url,
    env: { LOG_LEVEL: 'warn', MODEL_DIR: process.env.MODEL_DIR ?? 'models/cxr' },
  });
  const workers: TProc[] = Array.from({ length: WORKERS }, () => stack.startWorker({ LOG_LEVEL: 'warn' }));
  const sql = sqlClient(pgdb.url);
  try {
    const database = await openDatabase({ url: pgdb.url, pgliteDir: 'memory://' });
    const config = testConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' });
    const tokens = await Promise.all(
      Array.from(
        { length: USERS },
        async () => (await createUser({ db: database.db, images: null as never, config })).token,
      ),
    );
    await database.close();
    // Distinct images (one pixel differs): identical bytes share one storage key and serialise
    // on its lock, which is a different experiment (SAME_IMAGE=1 runs it).
    const base = readFileSync(CXR_FIXTURE);
    const dot = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const images =
      process.env.SAME_IMAGE === '1'
        ? Array.from({ length: ANALYSES }, () => base)
        : await Promise.all(
            Array.from({ length: ANALYSES }, (_, i) =>
              sharp(base)
                .composite([{ input: dot, left: i % 200, top: Math.floor(i / 200) }])
                .jpeg({ quality: 92 })
                .toBuffer(),
            ),
          );
    console.log(
      `${USERS} users, ${ANALYSES} analyses at once, ${WORKERS} worker process(es), model ${stack.env.MODEL_DIR}`,
    );

    const rss: Record<string, number[]> = {
      server: [],
      ...Object.fromEntries(workers.map((_, i) => [`worker${i + 1}`, []])),
    };
    const sampler = setInterval(() => {
      void rssMiB(stack.server.child.pid).then((v) => v && rss.server!.push(v));
      workers.forEach((w, i) => void rssMiB(w.child.pid).then((v) => v && rss[`worker${i + 1}`]!.push(v)));
    }, 500);

    let done = false;
    const reads: number[] = [];
    let readErrors = 0;
    const readers = Array.from({ length: READERS }, async (_, r) => {
      while (!done) {
        const t0 = performance.now();
        const res = await fetch(`${stack.url}/trpc/history.list?input=${encodeURIComponent('{"limit":30}')}`, {
          headers: { authorization: `Bearer ${tokens[r % tokens.length]}` },
        });
        await res.arrayBuffer();
        if (res.ok) reads.push(performance.now() - t0);
        else readErrors++;
      }
    });

    const t0 = performance.now();
    const uploads = await Promise.all(
      Array.from({ length: ANALYSES }, (_, i) => uploadXray(stack, tokens[i % USERS]!, images[i])),
    );
    const acceptedAt = performance.now();
    const ids = uploads.filter((u) => u.status === 202).map((u) => u.body.data!.analysis_id);
    const rejected = uploads.filter((u) => u.status !== 202);
    let finished = 0;
    for (;;) {
      const r = await sql.query<{ n: number }>(
        `select count(*)::int as n from analyses where id = any($1) and status in ('completed','refused','failed')`,
        [ids],
      );
      finished = r.rows[0]?.n ?? 0;
      if (finished === ids.length || performance.now() - t0 > 15 * 60_000) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    const totalMs = performance.now() - t0;
    done = true;
    await Promise.all(readers);
    clearInterval(sampler);

    const per = await sql.query<{ status: string; reports: number; n: number }>(
      `select a.status, (select count(*)::int from messages m where m.analysis_id = a.id) as reports, count(*)::int as n
       from analyses a where a.id = any($1) group by 1, 2 order by 1, 2`,
      [ids],
    );
    const onceEach = per.rows.every((r) => r.reports === 1) && per.rows.reduce((s, r) => s + r.n, 0) === ids.length;
    const readSeconds = totalMs / 1000;
    console.log(
      `uploads: ${ids.length} accepted, ${rejected.length} refused (${[...new Set(rejected.map((u) => u.status))].join(',') || '-'}), all accepted in ${fmt(acceptedAt - t0, 0)} ms; upload latency p50 ${fmt(
        percentile(
          uploads.map((u) => u.ms),
          50,
        ),
        0,
      )} ms, p95 ${fmt(
        percentile(
          uploads.map((u) => u.ms),
          95,
        ),
        0,
      )} ms`,
    );
    console.log(
      `analyses: ${finished}/${ids.length} finished in ${fmt(totalMs / 1000)} s -> ${fmt(ids.length / (totalMs / 1000), 2)} analyses/s`,
    );
    console.log(
      `outcomes (status, report messages, count): ${per.rows.map((r) => `${r.status}/${r.reports}x${r.n}`).join(', ')}`,
    );
    console.log(`exactly once: ${onceEach ? 'yes' : 'NO'} (no analysis lost, none with 0 or 2+ reports)`);
    console.log(
      `read call during the burst (tRPC history.list, ${READERS} concurrent readers): ${reads.length} calls, ${fmt(reads.length / readSeconds)} req/s, p50 ${fmt(percentile(reads, 50))} ms, p95 ${fmt(percentile(reads, 95))} ms, errors ${readErrors}`,
    );
    for (const [name, xs] of Object.entries(rss))
      console.log(
        `RSS ${name}: start ${fmt(xs[0] ?? NaN, 0)} MiB, max ${fmt(Math.max(...xs), 0)} MiB, end ${fmt(xs.at(-1) ?? NaN, 0)} MiB (${xs.length} samples)`,
      );
    if (!onceEach || finished !== ids.length || rejected.length) process.exitCode = 1;
  } finally {
    await Promise.all(workers.map((w) => w.stop('SIGTERM')));
    await stack.close();
    await sql.end();
    await redis.stop();
    await pgdb.drop();
    await rm(redisDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
