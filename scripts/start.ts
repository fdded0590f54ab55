import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '@contracts/config/server-config.js';
import { startPrivateRedis } from './lib/private-redis.js';

/**
 * Supervises the app: a private Redis (AOF on, noeviction, data under ./data/redis) when
 * REDIS_URL is unset, then the server and the worker. Either child exiting stops the rest.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const env: NodeJS.ProcessEnv = { ...process.env };
  const children: ChildProcess[] = [];
  let redis: { url: string; stop: () => Promise<void> } | null = null;
  if (!config.REDIS_URL) {
    const dir = resolve(config.DATA_DIR, 'redis');
    mkdirSync(dir, { recursive: true });
    redis = await startPrivateRedis(dir);
    env.REDIS_URL = redis.url;
    console.log(`Started a private Redis at ${redis.url} (data in ${dir})`);
  }

  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
    await redis?.stop();
    process.exit(code);
  };
  const run = (name: string, entry: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], { env, stdio: 'inherit' });
    child.on('exit', (code) => {
      if (!stopping) {
        console.error(`${name} exited with code ${code ?? 'null'}; stopping.`);
        void stopAll(code ?? 1);
      }
    });
    children.push(child);
  };
  run('server', 'server/src/main.ts');
  run('worker', 'worker/src/main.ts');
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const url = `http://localhost:${config.PORT}`;
  for (let i = 0; i < 120 && !stopping; i++) {
    const ok = await fetch(`${url}/readyz`).then((r) => r.ok).catch(() => false);
    if (ok) {
      console.log(`\n  Chest Doctor AI is running at ${url}  (Ctrl-C to stop)\n`);
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
