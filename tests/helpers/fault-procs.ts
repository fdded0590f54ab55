import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../scripts/lib/private-redis.js';
import { E2E_LOG_DIR } from './e2e-app.js';
import { uniqueSuffix } from './test-config.js';
import { testPatientName } from './test-patients.js';

/**
 * Real processes for the fault-injection tests: the server and any number of workers started
 * and killed one by one (startE2eApp ties them together), a TCP proxy in front of PostgreSQL
 * that can be cut, and polling helpers. Logs go to E2E_LOG_DIR like every e2e app's, so the
 * final log scan covers them.
 */

export const TINY_MODEL_DIR = 'tests/fixtures/tiny-model';
export const CXR_FIXTURE = 'tests/fixtures/xray/covid-1.jpg';

export interface TProc {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnPart(entry: string, env: NodeJS.ProcessEnv, logName: string): TProc {
  mkdirSync(E2E_LOG_DIR, { recursive: true });
  const log = createWriteStream(join(E2E_LOG_DIR, `${logName}.log`), { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      log.end();
      resolve({ code, signal });
    });
  });
  return {
    child,
    exited,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 200,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface TStack {
  url: string;
  env: NodeJS.ProcessEnv;
  logName: string;
  server: TProc;
  dataDir: string;
  startWorker(extra?: Record<string, string>): TProc;
  close(): Promise<void>;
}

/** The server as its own process on a free port, against the given Redis and database URLs. */
export async function startStack(opts: {
  redisUrl: string;
  databaseUrl: string;
  env?: Record<string, string>;
}): Promise<TStack> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cxr-fault-'));
  const logName = `fault-${uniqueSuffix()}`;
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: opts.databaseUrl,
    REDIS_URL: opts.redisUrl,
    QUEUE_PREFIX: `f${uniqueSuffix()}`,
    LOG_LEVEL: 'info',
    MODEL_DIR: TINY_MODEL_DIR,
    RATE_LIMIT_DISABLED: 'true',
    ANALYSIS_WAIT_MS: '0',
    // The reconciler would hide a lost job by re-enqueuing it: keep it out of these tests' way.
    ANALYSIS_RECONCILE_INTERVAL_MS: '600000',
    ANALYSIS_STUCK_SECONDS: '600',
    ...opts.env,
  };
  delete env.PGLITE_DIR;
  const server = spawnPart('server/src/main.ts', env, `${logName}-server`);
  const workers: TProc[] = [];
  const stack: TStack = {
    url,
    env,
    logName,
    server,
    dataDir,
    startWorker: (extra = {}) => {
      const w = spawnPart(
        'worker/src/main.ts',
        { ...env, WORKER_LOCK_MS: '2000', WORKER_STALLED_MS: '1000', ...extra },
        `${logName}-worker`,
      );
      workers.push(w);
      return w;
    },
    close: async () => {
      await Promise.all([...workers.map((w) => w.stop('SIGKILL')), server.stop()]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  await waitFor(
    'the server to be ready',
    async () => {
      if (server.child.exitCode !== null) throw new Error(`server exited (log ${logName}-server.log)`);
      return (await fetch(`${url}/readyz`)).ok;
    },
    120_000,
    250,
  ).catch(async (err: unknown) => {
    await stack.close();
    throw err;
  });
  return stack;
}

/** POST /api/chat/upload with the chest X-ray fixture, as an API client would. */
export async function uploadXray(
  stack: Pick<TStack, 'url'>,
  token: string,
  image = readFileSync(CXR_FIXTURE),
): Promise<{
  status: number;
  ms: number;
  body: { success: boolean; message: string; data?: { analysis_id: string; chat_id: string } };
}> {
  const form = new FormData();
  form.append('profile', JSON.stringify({ full_name: testPatientName('Fault'), age: '61', medical_history: 'None' }));
  form.append('image', new Blob([image], { type: 'image/jpeg' }), 'xray.jpg');
  const t0 = performance.now();
  const res = await fetch(`${stack.url}/api/chat/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as {
    success: boolean;
    message: string;
    data?: { analysis_id: string; chat_id: string };
  };
  return { status: res.status, ms: performance.now() - t0, body };
}

/** A direct connection to the test database, for checking what the server wrote. */
export function sqlClient(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined);
  return pool;
}

export async function analysisState(
  db: pg.Pool,
  analysisId: string,
): Promise<{ status: string; stage: string; reports: number }> {
  const r = await db.query<{ status: string; stage: string; reports: number }>(
    `select a.status, a.stage, (select count(*)::int from messages m where m.analysis_id = a.id) as reports from analyses a where a.id = $1`,
    [analysisId],
  );
  const row = r.rows[0];
  if (!row) throw new Error('analysis not found');
  return row;
}

/** A TCP proxy in front of a server that a test can cut (closing every connection) and restore. */
export async function startTcpProxy(
  targetPort: number,
): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => undefined);
          s.on('close', () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const cut = async () => {
    const s = server as Server | null;
    server = null;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  await listen();
  return { port, cut, restore: listen, close: cut };
}
