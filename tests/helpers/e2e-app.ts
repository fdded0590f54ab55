import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/lib/private-redis.js';
import { openDatabase } from '../../server/src/db/client.js';
import { pgliteSnapshot, uniqueSuffix } from './test-config.js';

export interface E2eApp {
  url: string;
  dataDir: string;
  queuePrefix: string;
  /** Combined server and worker log file of this app. */
  logFile: string;
  server: ChildProcess;
  worker: ChildProcess;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** Where every e2e app writes its logs, so a test can scan the whole run for patient data. */
export const E2E_LOG_DIR = join(tmpdir(), 'cxr-e2e-logs');

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * The real app as separate processes (server and worker, like `npm start`), on a free port, its
 * own data dir (file-backed PGlite unless DATABASE_URL is given) and its own queue prefix.
 */
export async function startE2eApp(
  extraEnv: Record<string, string> = {},
  opts: { worker?: boolean } = {},
): Promise<E2eApp> {
  // A caller that must know the URL first (an IdP registering its callback) passes PORT.
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'cxr-e2e-'));
  const queuePrefix = `e${uniqueSuffix()}`;
  const url = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    QUEUE_PREFIX: queuePrefix,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    LOG_LEVEL: 'info',
    REFUSAL_DELAY_MS: '0',
    ...extraEnv,
  };
  delete env.PGLITE_DIR;
  const snapshot = pgliteSnapshot();
  if (!env.DATABASE_URL && snapshot) {
    // The server's PGlite directory, written from the run's migrated template: the server finds
    // its schema there instead of migrating an empty database first.
    await (await openDatabase({ pgliteDir: join(dataDir, 'pg'), pgliteSnapshot: snapshot })).close();
  }
  await import('node:fs/promises').then((fs) => fs.mkdir(E2E_LOG_DIR, { recursive: true }));
  const logFile = join(E2E_LOG_DIR, `${queuePrefix}.log`);
  const log = createWriteStream(logFile);
  const spawnPart = (entry: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    return child;
  };
  const server = spawnPart('server/src/main.ts');
  const worker = opts.worker === false ? spawn('true') : spawnPart('worker/src/main.ts');
  const close = async () => {
    await Promise.all([stop(server), stop(worker)]);
    log.end();
    await rm(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 240; i++) {
    if (server.exitCode !== null) break;
    const ok = await fetch(`${url}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { url, dataDir, queuePrefix, logFile, server, worker, env, close };
    await new Promise((r) => setTimeout(r, 250));
  }
  await close();
  throw new Error(`e2e app did not become ready (log: ${logFile})`);
}
