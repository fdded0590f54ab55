import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

/** The entry of the shadow process, beside this folder (run with this process's own loader flags). */
const SHADOW_MAIN = fileURLToPath(new URL('../shadow-main.ts', import.meta.url));
/** A shadow process that dies is started again, at most once in this many ms. */
const RESTART_MS = 5_000;

export interface ShadowProcess {
  /** Stops the shadow process (it finishes its study first) and does not start it again. */
  stop(): Promise<void>;
}

/**
 * Starts the shadow process (shadow-main.ts) as a child of the worker, with the worker's
 * environment and loader flags, and starts it again when it dies. Shadow models run there at the
 * lowest CPU priority, so a live analysis is never slowed by one (issue 47).
 */
export function startShadowProcess(log: Logger): ShadowProcess {
  let child: ChildProcess | null = null;
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  const start = () => {
    const startedAt = Date.now();
    child = fork(SHADOW_MAIN, [], { execArgv: process.execArgv, stdio: 'inherit' });
    child.once('exit', (code, signal) => {
      child = null;
      if (stopping) return;
      log.warn({ code, signal }, 'shadow process exited; starting it again');
      timer = setTimeout(start, Math.max(0, RESTART_MS - (Date.now() - startedAt)));
    });
  };
  start();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (timer) clearTimeout(timer);
        const c = child;
        if (!c || c.exitCode !== null) return resolve();
        c.once('exit', () => resolve());
        c.kill('SIGTERM');
      }),
  };
}
