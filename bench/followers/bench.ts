import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { publishAnalysisEvent } from '@common/publish-analysis-event.js';
import type { TAnalysisEvent } from '@contracts/queues.js';
import { buildApp } from '../../server/src/app.js';
import type { TDb } from '../../server/src/db/client.js';
import * as schema from '../../server/src/db/schema.js';
import { openDeps } from '../../server/src/open-deps.js';
import { createChat, createUser } from '../../tests/helpers/factories.js';
import { createPostgresDatabase, testConfig } from '../../tests/helpers/test-config.js';
import { fmt } from '../load/stats.js';

/**
 * npm run bench:followers: SUBSCRIBERS concurrent tRPC `analysis.onProgress` subscriptions (SSE
 * over HTTP, from this process, to the real app listening in this process) on one analysis,
 * while progress events are published on the pub/sub channel as a worker would for WINDOW_S
 * seconds. Every database statement the app sends is counted through a drizzle logger; the
 * figure is the statements per second during that window, after every subscriber got its first
 * event (each subscription reads the analysis once when it opens: counted separately).
 * Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and Redis.
 */
const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 1000);
const WINDOW_S = Number(process.env.WINDOW_S ?? 10);
const EVENTS_PER_S = 10;
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

interface TFollower {
  events: string[];
  done: Promise<void>;
}

/** Opens one SSE subscription and records the stage of each `data:` event until the stream ends. */
async function follow(url: string, token: string, abort: AbortSignal): Promise<TFollower> {
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort,
  });
  if (!res.ok || !res.body) throw new Error(`onProgress answered ${res.status}`);
  const events: string[] = [];
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let first!: () => void;
  const opened = new Promise<void>((resolve) => (first = resolve));
  const done = (async () => {
    let buffer = '';
    for (;;) {
      const { value, done: ended } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (ended) return;
      buffer += value;
      for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
        const stage = /"stage":"(\w+)"/.exec(buffer.slice(0, i))?.[1];
        buffer = buffer.slice(i + 2);
        if (stage) {
          events.push(stage);
          first();
        }
      }
    }
  })();
  await Promise.race([opened, done]);
  return { events, done };
}

async function main(): Promise<void> {
  const pgdb = await createPostgresDatabase();
  const config = testConfig({
    DATABASE_URL: pgdb.url,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_DISABLED: 'true',
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
  });
  const opened = await openDeps(config);
  // The app's database handle, on a pool like the app's own, with every statement counted.
  let statements = 0;
  const pool = new pg.Pool({ connectionString: pgdb.url, max: 20 });
  opened.deps.db = drizzle(pool, { schema, logger: { logQuery: () => void statements++ } }) as unknown as TDb;
  const app = await buildApp({ deps: opened.deps, pingDb: opened.pingDb, logger: false });
  const abort = new AbortController();
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const { user, token } = await createUser(opened.deps);
    const { analysis } = await createChat(opened.deps, user.id, { analysisStatus: 'queued' });
    if (!analysis) throw new Error('no analysis row');
    const url = `http://127.0.0.1:${port}/trpc/analysis.onProgress?input=${encodeURIComponent(JSON.stringify({ analysisId: analysis.id }))}`;

    const before = statements;
    const t0 = performance.now();
    const followers: TFollower[] = [];
    // In waves, so 1,000 connections do not all start inside one event-loop turn on two cores.
    for (let i = 0; i < SUBSCRIBERS; i += 100) {
      followers.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(100, SUBSCRIBERS - i) }, () => follow(url, token, abort.signal)),
        )),
      );
    }
    const openMs = performance.now() - t0;
    const atOpen = statements - before;

    const publish = (stage: TAnalysisEvent['stage']) =>
      publishAnalysisEvent(opened.deps.redis, config.QUEUE_PREFIX, { analysisId: analysis.id, stage });
    const windowStart = statements;
    const w0 = performance.now();
    const total = WINDOW_S * EVENTS_PER_S;
    // A worker's stages, with the middle one repeated: every event fans out to every follower.
    for (let i = 0; i < total; i++) {
      await publish(i < total / 3 ? 'checking' : i < (2 * total) / 3 ? 'analysing' : 'writing');
      await new Promise((r) => setTimeout(r, 1000 / EVENTS_PER_S));
    }
    const windowS = (performance.now() - w0) / 1000;
    const inWindow = statements - windowStart;
    await publish('done');
    await Promise.race([Promise.all(followers.map((f) => f.done)), new Promise((r) => setTimeout(r, 30_000))]);
    const complete = followers.filter((f) => f.events.join(',') === 'queued,checking,analysing,writing,done').length;

    console.log(
      `${SUBSCRIBERS} tRPC onProgress subscriptions (SSE over HTTP, in-process clients) opened in ${fmt(openMs, 0)} ms; ${atOpen} statements while opening (${fmt(atOpen / SUBSCRIBERS, 2)} per subscription: its one read of the analysis, and the session)`,
    );
    console.log(
      `window: ${total} events published over ${fmt(windowS)} s; ${inWindow} database statements -> ${fmt(inWindow / windowS, 2)} per second`,
    );
    console.log(
      `followers that saw queued -> checking -> analysing -> writing -> done and closed: ${complete}/${SUBSCRIBERS}`,
    );
    console.log(
      JSON.stringify({ subscribers: SUBSCRIBERS, dbQueriesPerSecond: Number((inWindow / windowS).toFixed(2)) }),
    );
    if (complete !== SUBSCRIBERS) process.exitCode = 1;
  } finally {
    abort.abort();
    await app.close();
    await opened.close();
    await pool.end();
    await pgdb.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
