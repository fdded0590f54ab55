import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
// autocannon ships no types; this is the part of its API used here.
// @ts-expect-error untyped module
import autocannonUntyped from 'autocannon';
import { freePort, startPrivateRedis } from '../../scripts/lib/private-redis.js';
import { openDatabase } from '../../server/src/db/client.js';
import { createChat, createUser } from '../../tests/helpers/factories.js';
import { startStack } from '../../tests/helpers/fault-procs.js';
import { createPostgresDatabase, testConfig } from '../../tests/helpers/test-config.js';
import { captureHistorySql } from './capture-history-sql.js';
import { fmt, percentile } from './stats.js';

interface TResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => Promise<TResult>;

/**
 * npm run bench:rps: requests/s of a read procedure (tRPC history.list with a bearer session,
 * 30 chats: session, tRPC, audit entry) on the real server process, against the ceiling: a bare
 * Fastify route that runs the same SQL (captured from drizzle) through `pg` with the app's pool
 * size. Both driven by autocannon from this process. Last line: JSON for scripts.
 */
// Nine alternating 2 s rounds: the median of nine is steadier than of five on a shared machine.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 18);
const ROUNDS = 9;
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const PAGE = 30;
/** server/src/db/client.ts's pg pool size. */
const POOL_SIZE = 20;
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

async function main(): Promise<void> {
  const pgdb = await createPostgresDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'cxr-rps-'));
  const redis = await startPrivateRedis(dir);
  const stack = await startStack({ redisUrl: redis.url, databaseUrl: pgdb.url, env: { LOG_LEVEL: 'warn' } });
  let bare: ChildProcess | undefined;
  try {
    const database = await openDatabase({ url: pgdb.url, pgliteDir: 'memory://' });
    const deps = {
      db: database.db,
      images: null as never,
      config: testConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }),
    };
    const { user, token } = await createUser(deps);
    for (let i = 0; i < 30; i++) await createChat(deps, user.id, { title: `Chat ${i} - X-Ray Analysis` });
    await database.close();

    const url = `${stack.url}/trpc/history.list?input=${encodeURIComponent(JSON.stringify({ limit: PAGE }))}`;
    const headers = { authorization: `Bearer ${token}` };
    const sample = await fetch(url, { headers });
    const body = Buffer.from(await sample.arrayBuffer());
    if (!sample.ok) throw new Error(`history.list answered ${sample.status}`);
    const queries = await captureHistorySql(pgdb.url, user.id, PAGE);
    writeFileSync(join(dir, 'queries.json'), JSON.stringify(queries));
    const port = await freePort();
    bare = fork(
      new URL('./bare-server.ts', import.meta.url).pathname,
      [String(port), join(dir, 'queries.json'), pgdb.url, String(POOL_SIZE)],
      { execArgv: ['--import', 'tsx'], stdio: 'ignore' },
    );
    await new Promise<void>((resolve) => bare?.once('message', () => resolve()));
    const bareUrl = `http://127.0.0.1:${port}/bare`;
    const bareSample = await fetch(bareUrl);
    if (!bareSample.ok) throw new Error(`the ceiling route answered ${bareSample.status}`);

    const run = (target: string, h: Record<string, string> = {}, duration = SECONDS) =>
      autocannon({ url: target, connections: CONNECTIONS, duration, headers: h });
    // Warm both (JIT, pools, the session cache) before measuring: with 2 s the app's first rounds
    // still ran at half its later rate (its code path is longer to optimise), so 5 s each.
    await run(url, headers, 5);
    await run(bareUrl, {}, 5);
    // Short alternating rounds: on a shared machine the load moves within seconds, and two long
    // runs one after the other would compare two different machines.
    const apps: TResult[] = [];
    const ceilings: TResult[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      apps.push(await run(url, headers, SECONDS / ROUNDS));
      ceilings.push(await run(bareUrl, {}, SECONDS / ROUNDS));
    }
    const rps = (xs: TResult[]) =>
      percentile(
        xs.map((x) => x.requests.average),
        50,
      );
    const appRps = rps(apps);
    const ceilingRps = rps(ceilings);
    const ratio = appRps / ceilingRps;
    const line = (xs: TResult[]) =>
      `median ${fmt(rps(xs), 0)} req/s (rounds ${xs.map((x) => fmt(x.requests.average, 0)).join(', ')}), p50 ${fmt(
        percentile(
          xs.map((x) => x.latency.p50),
          50,
        ),
        0,
      )} ms, non-2xx ${xs.reduce((n, x) => n + x.non2xx, 0)}, errors ${xs.reduce((n, x) => n + x.errors, 0)}`;
    console.log(
      `${ROUNDS} alternating rounds of ${SECONDS / ROUNDS} s each, ${CONNECTIONS} connections, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )}; history.list answer ${body.length} bytes; ceiling runs ${queries.length} statements per request, pg pool ${POOL_SIZE}`,
    );
    console.log(`app      tRPC history.list (session, ${PAGE} chats, audit): ${line(apps)}`);
    console.log(`ceiling  Fastify route, same SQL via pg:          ${line(ceilings)}`);
    console.log(`ratio app / ceiling: ${fmt(ratio, 3)} (${fmt(100 * ratio, 1)} %)`);
    console.log(
      JSON.stringify({
        appRps: Math.round(appRps),
        ceilingRps: Math.round(ceilingRps),
        ratio: Number(ratio.toFixed(3)),
        ceiling: 'same SQL via pg',
      }),
    );
    const failed = [...apps, ...ceilings].some((x) => x.non2xx || x.errors);
    if (failed) process.exitCode = 1;
  } finally {
    bare?.kill();
    await stack.close();
    await redis.stop();
    await pgdb.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
