import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// autocannon ships no types; this is the part of its API used here.
// @ts-expect-error untyped module
import autocannonUntyped from 'autocannon';
import { freePort, startPrivateRedis } from '../../scripts/lib/private-redis.js';
import { openDatabase } from '../../server/src/db/client.js';
import { createChat, createUser } from '../../tests/helpers/factories.js';
import { startStack } from '../../tests/helpers/fault-procs.js';
import { createPostgresDatabase, testConfig } from '../../tests/helpers/test-config.js';
import { fmt } from './stats.js';

interface TResult { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }
const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => Promise<TResult>;

/**
 * npm run bench:rps: requests/s of a read procedure (tRPC history.list with a session, 30 chats)
 * on the real server process, against a bare Fastify route answering the same bytes on the same
 * machine, both driven by autocannon from this process; prints the ratio.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

async function main(): Promise<void> {
  const pgdb = await createPostgresDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'cxr-rps-'));
  const redis = await startPrivateRedis(dir);
  const stack = await startStack({ redisUrl: redis.url, databaseUrl: pgdb.url, env: { LOG_LEVEL: 'warn' } });
  const bare = fork(new URL('./bare-server.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
  try {
    const database = await openDatabase({ url: pgdb.url, pgliteDir: 'memory://' });
    const deps = { db: database.db, images: null as never, config: testConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }) };
    const { user, token } = await createUser(deps);
    for (let i = 0; i < 30; i++) await createChat(deps, user.id, { title: `Chat ${i} - X-Ray Analysis` });
    await database.close();

    const url = `${stack.url}/trpc/history.list?input=${encodeURIComponent('{"limit":30}')}`;
    const headers = { authorization: `Bearer ${token}` };
    const sample = await fetch(url, { headers });
    const body = Buffer.from(await sample.arrayBuffer());
    if (!sample.ok) throw new Error(`history.list answered ${sample.status}`);
    writeFileSync(join(dir, 'body.json'), body);
    const port = await freePort();
    bare.kill();
    const bareProc = fork(new URL('./bare-server.ts', import.meta.url).pathname, [String(port), join(dir, 'body.json')], { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
    await new Promise<void>((resolve) => bareProc.once('message', () => resolve()));

    const run = (target: string, h: Record<string, string> = {}) => autocannon({ url: target, connections: CONNECTIONS, duration: SECONDS, headers: h });
    await run(url, headers).catch(() => undefined); // warm-up is the first second of each run below
    const app = await run(url, headers);
    const ceiling = await run(`http://127.0.0.1:${port}/bare`);
    bareProc.kill();
    console.log(`${SECONDS} s each, ${CONNECTIONS} connections, response ${body.length} bytes`);
    console.log(`app   tRPC history.list (session, 30 chats): ${fmt(app.requests.average, 0)} req/s, p50 ${app.latency.p50} ms, p99 ${app.latency.p99} ms, non-2xx ${app.non2xx}, errors ${app.errors}`);
    console.log(`bare  Fastify route (same bytes):            ${fmt(ceiling.requests.average, 0)} req/s, p50 ${ceiling.latency.p50} ms, p99 ${ceiling.latency.p99} ms`);
    console.log(`ratio app / bare: ${fmt(app.requests.average / ceiling.requests.average, 3)} (${fmt((100 * app.requests.average) / ceiling.requests.average, 1)} % of bare Fastify)`);
  } finally {
    bare.kill();
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
