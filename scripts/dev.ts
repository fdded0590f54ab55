/**
 * npm run dev: the server and the worker under `node --watch` (restarted when their code
 * changes), Vite's dev server with hot reload for the client (http://localhost:5173, proxying
 * /api and /trpc to the server), a private Redis when REDIS_URL is unset, and the JSON logs of
 * server and worker made readable by pino-pretty (a devDependency: never in production).
 * .env is loaded by this process (--env-file-if-exists in package.json) and inherited below.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import pretty from 'pino-pretty';
import { loadConfig } from '@contracts/config/server-config.js';
import { parseCliArgs, runCli } from '@common/cli-args.js';
import { startAppRedis } from './lib/private-redis.js';
import { stopChildren } from './lib/stop-children.js';

const USAGE = `Usage: npm run dev
Server and worker in watch mode with readable logs, and the client on Vite's dev server
(http://localhost:5173). Settings come from the environment and .env, as for npm start.`;

runCli(USAGE, async () => {
  parseCliArgs(process.argv.slice(2), {});
  const config = loadConfig();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' };
  const redis = await startAppRedis(config, env);

  const children: ChildProcess[] = [];
  const node = (name: string, entry: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--watch', entry], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Each process gets its own pretty printer, so a half-written line never mixes with another's.
    child.stdout?.pipe(
      pretty({
        colorize: process.stdout.isTTY,
        translateTime: 'HH:MM:ss',
        ignore: 'pid,hostname',
        messageFormat: `[${name}] {msg}`,
      }),
    );
    children.push(child);
  };
  node('server', 'server/src/main.ts');
  node('worker', 'worker/src/main.ts');
  children.push(
    spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--config', 'client/vite.config.ts'], {
      env,
      stdio: 'inherit',
    }),
  );

  await new Promise<void>((done) => {
    const stop = () => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Under --watch a crash waits for the next edit; only Vite exiting ends the session.
    children.at(-1)?.once('exit', stop);
  });
  await stopChildren(children);
  await redis?.stop();
});
