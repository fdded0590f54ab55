import { constants, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { isAppError } from './app-error.js';

/** What a pool thread posts back: ready once loaded, then one answer per job. */
export type TThreadMessage =
  | { type: 'ready' }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'failed'; id: number; error: { code?: string; message: string } };

export interface TThreadResult<O> {
  value: O;
  /** Buffers handed to the main thread instead of copied (they become unusable here). */
  transfer?: ArrayBuffer[];
}

/**
 * The thread side of createThreadPool: runs one job at a time (the pool never sends a second
 * before the first answers). An AppError crosses as its code and message, so the request gets
 * the same refusal it would get in-process; anything else crosses as a bare message.
 */
export function serveThreadJobs<I, O>(handler: (input: I) => Promise<TThreadResult<O>>): void {
  const port = parentPort;
  if (!port) throw new Error('serveThreadJobs runs only inside a worker thread');
  // On Linux a priority set for "pid 0" applies to the calling thread only: on a busy machine
  // the event loop then gets the CPU first, and the job takes what is left.
  try {
    setPriority(0, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not allowed here (some containers): the job still runs, at normal priority.
  }
  port.on('message', (msg: { id: number; input: I }) => {
    handler(msg.input).then(
      ({ value, transfer }) => port.postMessage({ type: 'done', id: msg.id, value } satisfies TThreadMessage, transfer),
      (err: unknown) => {
        const error = isAppError(err)
          ? { code: err.code, message: err.message }
          : { message: err instanceof Error ? err.message : String(err) };
        port.postMessage({ type: 'failed', id: msg.id, error } satisfies TThreadMessage);
      },
    );
  });
  port.postMessage({ type: 'ready' } satisfies TThreadMessage);
}
