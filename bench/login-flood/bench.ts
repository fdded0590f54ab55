/**
 * npm run bench:login-flood
 *
 * Issue 23, N6: can one address take the machine's login capacity? Starts the real server as its
 * own process (no analysis worker), with the production argon2 cost and every limit at its
 * default (the global limiter on), on PostgreSQL as deployed (TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres; a throwaway database is made and dropped).
 *
 * Another signed-in user's `history.list` is timed (one call at a time, at most one per 60 ms),
 * first with the server quiet, then during two floods from this one address: FLOOD_CONCURRENCY
 * loops sending logins (unknown emails, wrong passwords, as a guessing run would), then
 * BEARER_CONCURRENCY loops sending `GET /api/auth/me` with random bearer tokens (issue 36 S4:
 * those were refused 401 before the limiter counted them). Prints the medians, each flood's
 * ratio to the quiet median (target: within 2x) and what each flood got back; the last line is
 * JSON. Settings can be overridden by the
 * environment (e.g. AUTH_ATTEMPTS_PER_IP_PER_MINUTE=100000 to see the flood unthrottled, or
 * REFUSAL_DELAY_MS=0 to see the refusals sent at once, as before the hold).
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { E2eApp } from '../../tests/helpers/e2e-app.js';
import { loadAverage } from '../lib/read-load-average.js';
import { signUpBenchUser, startPostgresBenchApp } from '../lib/start-bench-app.js';
import { percentile } from '../load/stats.js';
import { ZConfig } from '../../contracts/config/server-config.js';

const QUIET_SAMPLES = 100;
const SAMPLE_EVERY_MS = 60;
const FLOOD_SECONDS = Number(process.env.FLOOD_SECONDS ?? 15);
const FLOOD_CONCURRENCY = Number(process.env.FLOOD_CONCURRENCY ?? 16);
const BEARER_CONCURRENCY = Number(process.env.BEARER_CONCURRENCY ?? 200);
// The e2e starter turns the refusal hold off for tests; the bench runs the shipped default.
const REFUSAL_DELAY_MS = Number(process.env.REFUSAL_DELAY_MS ?? ZConfig.shape.REFUSAL_DELAY_MS.parse(undefined));

/** One history.list call's time in ms; throws on anything but 200 (a 429 here would be a finding). */
async function timeHistoryList(app: E2eApp, token: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${app.url}/trpc/history.list`, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`history.list answered ${res.status}: ${new TextDecoder().decode(body)}`);
  return ms;
}

/**
 * Calls at most one per SAMPLE_EVERY_MS: the user's own budget (RATE_LIMIT_PER_MINUTE, 600 a
 * minute per account) must last the whole run, or the bench would measure its own 429s.
 */
async function sample(app: E2eApp, token: string, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (until()) {
    const ms = await timeHistoryList(app, token);
    times.push(ms);
    await new Promise((r) => setTimeout(r, Math.max(0, SAMPLE_EVERY_MS - ms)));
  }
  return times;
}

type TFloodRequest = (url: string, n: number) => Promise<Response>;

const login: TFloodRequest = (url, n) =>
  fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `guess-${n}@example.org`, password: 'not the password 1' }),
  });

const randomBearer: TFloodRequest = (url) =>
  fetch(`${url}/api/auth/me`, { headers: { authorization: `Bearer ${randomBytes(24).toString('base64url')}` } });

/** `concurrency` loops sending `request` until stop(); returns how many of each status came back. */
async function flood(
  url: string,
  request: TFloodRequest,
  concurrency: number,
  stop: () => boolean,
): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let n = 0;
  const loop = async () => {
    while (!stop()) {
      const res = await request(url, n++).catch(() => null);
      await res?.arrayBuffer();
      const key = String(res?.status ?? 'error');
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return statuses;
}

/** history.list's times while `request` floods the server for FLOOD_SECONDS. */
async function underFlood(app: E2eApp, token: string, request: TFloodRequest, concurrency: number) {
  let flooding = true;
  const floodDone = flood(app.url, request, concurrency, () => !flooding);
  await new Promise((r) => setTimeout(r, 500)); // let the flood start
  const end = performance.now() + FLOOD_SECONDS * 1000;
  const during = await sample(app, token, () => performance.now() < end);
  flooding = false;
  const statuses = await floodDone;
  return { during, statuses, sent: Object.values(statuses).reduce((a, b) => a + b, 0) };
}

async function main(): Promise<void> {
  const loadStart = loadAverage();
  const app = await startPostgresBenchApp(
    {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      REFUSAL_DELAY_MS: String(REFUSAL_DELAY_MS),
    },
    { worker: false },
  );
  try {
    const other = await signUpBenchUser(app, 'other');
    for (let i = 0; i < 10; i++) await timeHistoryList(app, other); // warm-up
    let left = QUIET_SAMPLES;
    const quiet = await sample(app, other, () => left-- > 0);

    const logins = await underFlood(app, other, login, FLOOD_CONCURRENCY);
    const bearers = await underFlood(app, other, randomBearer, BEARER_CONCURRENCY);

    const quietMedianMs = percentile(quiet, 50);
    const floodMedianMs = percentile(logins.during, 50);
    const ratio = floodMedianMs / quietMedianMs;
    const bearerMedianMs = percentile(bearers.during, 50);
    const bearerRatio = bearerMedianMs / quietMedianMs;
    const line = (name: string, times: number[]) =>
      `history.list ${name} median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (n=${times.length})`;
    console.log(line('quiet:        ', quiet));
    console.log(line('login flood:  ', logins.during));
    console.log(line('bearer flood: ', bearers.during));
    console.log(
      `ratio login flood/quiet: ${ratio.toFixed(2)}, bearer flood/quiet: ${bearerRatio.toFixed(2)} (target within 2x)`,
    );
    console.log(
      `login flood: ${logins.sent} logins in ${FLOOD_SECONDS} s from one address, ${FLOOD_CONCURRENCY} at a time; statuses ${JSON.stringify(logins.statuses)}`,
    );
    console.log(
      `bearer flood: ${bearers.sent} GET /api/auth/me with random bearer tokens in ${FLOOD_SECONDS} s, ${BEARER_CONCURRENCY} at a time; statuses ${JSON.stringify(bearers.statuses)}`,
    );
    console.log(`load average at start ${loadStart}, at end ${loadAverage()} (${availableParallelism()} CPUs)`);
    console.log(
      JSON.stringify({
        bench: 'login-flood',
        quietMedianMs: Number(quietMedianMs.toFixed(1)),
        floodMedianMs: Number(floodMedianMs.toFixed(1)),
        ratio: Number(ratio.toFixed(2)),
        bearerFloodMedianMs: Number(bearerMedianMs.toFixed(1)),
        bearerRatio: Number(bearerRatio.toFixed(2)),
        target: 2,
        floodLogins: logins.sent,
        floodSeconds: FLOOD_SECONDS,
        floodConcurrency: FLOOD_CONCURRENCY,
        bearerRequests: bearers.sent,
        bearerConcurrency: BEARER_CONCURRENCY,
        refusalDelayMs: REFUSAL_DELAY_MS,
        statuses: logins.statuses,
        bearerStatuses: bearers.statuses,
        loadStart,
        loadEnd: loadAverage(),
        cpus: availableParallelism(),
      }),
    );
  } finally {
    await app.close();
  }
}

await main();
