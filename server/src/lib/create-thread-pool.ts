import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { AppError, type TAppErrorCode } from './app-error.js';
import type { TThreadMessage } from './serve-thread-jobs.js';

/** Why a job did not come back: each maps to its own user-facing refusal in the caller. */
export type TThreadFailure = 'timeout' | 'memory' | 'crashed' | 'busy';

export class ThreadJobError extends Error {
  constructor(
    readonly kind: TThreadFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ThreadJobError';
  }
}

export interface TThreadPoolOptions {
  /** The module the threads run; it calls serveThreadJobs(). A .ts module is loaded through tsx. */
  entry: URL;
  threads: number;
  /** Jobs waiting for a thread beyond this are refused at once ('busy') instead of piling up. */
  queueLimit: number;
  /** Wall time of one job, counted from the moment a ready thread receives it. */
  timeLimitMs: number;
  /** The thread's JS heap (V8 stops the thread past it). */
  resourceLimits: ResourceLimits;
  /**
   * Typed arrays and WebAssembly memory live outside the JS heap, so resourceLimits cannot see
   * them: the pool also stops a job when the process grows by more than this while it runs.
   */
  rssBudgetMb: number;
  /** A thread idle this long is stopped, returning whatever memory its last job grew. */
  idleMs: number;
}

export interface TThreadRunOptions {
  /** Buffers handed to the thread instead of copied (they become unusable here). */
  transfer?: readonly ArrayBuffer[];
  /** This job's own time limit, when it must differ from the pool's. */
  timeLimitMs?: number;
}

export interface TThreadPool<I, O> {
  run(input: I, options?: TThreadRunOptions): Promise<O>;
  close(): Promise<void>;
}

interface Job {
  id: number;
  input: unknown;
  transfer: readonly ArrayBuffer[];
  timeLimitMs: number;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  rssStart: number;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  idleTimer?: NodeJS.Timeout;
}

// Worker threads do not inherit the parent's module hooks on Node 20 (`--import tsx` in execArgv
// does not reach the thread's entry), so a TypeScript entry is imported after registering tsx
// inside the thread; the app's tsconfig gives it the same path aliases as the server.
const TSX_API = import.meta.resolve('tsx/esm/api');
const TSCONFIG = fileURLToPath(new URL('../../../tsconfig.json', import.meta.url));

export function startWorker(entry: URL, resourceLimits: ResourceLimits, workerData?: unknown): Worker {
  const options = { resourceLimits, execArgv: [], stdout: false, stderr: false, workerData };
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const j = JSON.stringify;
  const code = `import(${j(TSX_API)}).then(({ register }) => { register({ tsconfig: ${j(TSCONFIG)} }); return import(${j(entry.href)}); })`;
  return new Worker(code, { ...options, eval: true });
}

const MB = 1024 * 1024;
// Loading the entry (tsx, sharp, the codecs) takes seconds on a busy machine; a thread that is
// still not ready after this is stuck, and whatever waits for it is answered.
const START_LIMIT_MS = 60_000;

/**
 * A small pool of worker threads for CPU-heavy work that must never run on the HTTP event loop.
 * Each job has a time limit and a memory limit; a thread that overruns is terminated (the only
 * way to stop synchronous code or a WebAssembly decoder) and replaced on the next job.
 */
export function createThreadPool<I, O>(opts: TThreadPoolOptions): TThreadPool<I, O> {
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  let watch: NodeJS.Timeout | undefined;

  const settle = (slot: Slot) => {
    const job = slot.job;
    if (job) clearTimeout(job.timer);
    slot.job = null;
    // An idle thread must not keep a server (or a test file) alive; a busy one must, or a
    // command awaiting its result would exit halfway.
    slot.worker.unref();
    return job;
  };

  const drop = (slot: Slot, failure?: ThreadJobError): Promise<void> => {
    if (!slots.delete(slot)) return Promise.resolve();
    clearTimeout(slot.idleTimer);
    const job = settle(slot);
    if (job) job.reject(failure ?? new ThreadJobError('crashed', 'the thread stopped'));
    // A thread that never became ready cannot run anything queued either (a broken entry).
    if (!slot.ready) for (const queued of queue.splice(0)) queued.reject(new ThreadJobError('crashed', 'no thread'));
    const stopped = slot.worker.terminate().then(() => undefined);
    pump();
    return stopped;
  };

  const watchMemory = () => {
    const busy = [...slots].filter((s) => s.job);
    if (busy.length === 0) {
      clearInterval(watch);
      watch = undefined;
      return;
    }
    const rss = process.memoryUsage.rss();
    for (const slot of busy)
      if (slot.job && rss - slot.job.rssStart > opts.rssBudgetMb * MB)
        void drop(slot, new ThreadJobError('memory', 'the job outgrew its memory budget'));
  };

  const dispatch = (slot: Slot, job: Job) => {
    clearTimeout(slot.idleTimer);
    slot.job = job;
    slot.worker.ref();
    job.rssStart = process.memoryUsage.rss();
    job.timer = setTimeout(
      () => void drop(slot, new ThreadJobError('timeout', 'the job ran out of time')),
      job.timeLimitMs,
    ).unref();
    slot.worker.postMessage({ id: job.id, input: job.input }, [...job.transfer]);
    watch ??= setInterval(watchMemory, 50).unref();
  };

  const spawn = () => {
    const slot: Slot = { worker: startWorker(opts.entry, opts.resourceLimits), ready: false, job: null };
    slots.add(slot);
    const starting = setTimeout(() => void drop(slot), START_LIMIT_MS).unref();
    slot.worker.on('message', (msg: TThreadMessage) => {
      if (msg.type === 'ready') {
        clearTimeout(starting);
        slot.ready = true;
      } else if (slot.job?.id === msg.id) {
        const job = settle(slot)!;
        if (msg.type === 'done') job.resolve(msg.value);
        else
          job.reject(
            msg.error.code
              ? new AppError(msg.error.code as TAppErrorCode, msg.error.message)
              : new ThreadJobError('crashed', msg.error.message),
          );
      }
      if (!slot.job) {
        slot.worker.unref();
        slot.idleTimer = setTimeout(() => void drop(slot), opts.idleMs).unref();
      }
      pump();
    });
    slot.worker.on('error', (err: Error & { code?: string }) => {
      const kind = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed';
      void drop(slot, new ThreadJobError(kind, kind === 'memory' ? 'the job outgrew its heap' : err.message));
    });
    slot.worker.on('exit', () => {
      clearTimeout(starting);
      void drop(slot);
    });
  };

  function pump(): void {
    if (closed) return;
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue;
      const job = queue.shift();
      if (!job) return;
      dispatch(slot, job);
    }
    const starting = [...slots].filter((s) => !s.ready).length;
    if (queue.length > starting && slots.size < opts.threads) spawn();
  }

  return {
    run(input, { transfer = [], timeLimitMs = opts.timeLimitMs } = {}) {
      if (closed) return Promise.reject(new ThreadJobError('crashed', 'the pool is closed'));
      if (queue.length >= opts.queueLimit) return Promise.reject(new ThreadJobError('busy', 'the queue is full'));
      return new Promise<O>((resolve, reject) => {
        const settle = { resolve: resolve as (v: unknown) => void, reject };
        queue.push({ id: nextId++, input, transfer, timeLimitMs, ...settle, rssStart: 0 });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new ThreadJobError('crashed', 'the pool is closed'));
      await Promise.all([...slots].map((slot) => drop(slot)));
    },
  };
}
