import { spawn, type ChildProcess } from 'node:child_process';
import { loadConfig } from '@contracts/config/server-config.js';
import { startAppRedis } from './lib/private-redis.js';
import { stopChildren } from './lib/stop-children.js';

/**
 * Supervises the app: a private Redis (AOF on, noeviction, data under ./data/redis) when
 * REDIS_URL is unset, then the server and the worker. Either child exiting stops the rest.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const env: NodeJS.ProcessEnv = { ...process.env };
  const children: ChildProcess[] = [];
  const redis = await startAppRedis(config, env);

  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await stopChildren(children);
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
    const ok = await fetch(`${url}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
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
