import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve as resolvePath } from 'node:path';
import { Redis } from 'ioredis';

/** A free TCP port on loopback, chosen by the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts redis-server with the settings a job queue needs: append-only file (queued analyses
 * survive a restart) and noeviction (Redis must refuse writes rather than drop jobs).
 */
export async function startPrivateRedis(
  dir: string,
  port?: number,
): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const p = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(p),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      '--protected-mode',
      'yes',
    ],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${p}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    const ok = await probe
      .connect()
      .then(() => probe.ping())
      .then(() => true)
      .catch(() => false);
    if (ok) break;
    probe.disconnect();
    await new Promise((r) => setTimeout(r, 100));
  }
  probe.disconnect();
  return {
    url,
    port: p,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The Redis that npm start and npm run dev hand to their children: REDIS_URL from the environment
 * (or .env), or when it is unset or empty a private one with its data under DATA_DIR/redis, which `env.REDIS_URL`
 * (the children's environment) is then pointed at. null: none was started, nothing to stop.
 */
export async function startAppRedis(
  config: { DATA_DIR: string },
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; stop: () => Promise<void> } | null> {
  // The environment decides, not the parsed config: the config gives REDIS_URL a default for the
  // server and worker, so it is never empty there, and a fresh machine has no Redis running.
  if (env.REDIS_URL) return null;
  const dir = resolvePath(config.DATA_DIR, 'redis');
  mkdirSync(dir, { recursive: true });
  const redis = await startPrivateRedis(dir);
  env.REDIS_URL = redis.url;
  console.log(`Started a private Redis at ${redis.url} (data in ${dir})`);
  return redis;
}
