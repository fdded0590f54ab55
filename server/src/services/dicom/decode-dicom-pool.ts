import { AppError } from '../../lib/app-error.js';
import {
  createThreadPool,
  ThreadJobError,
  type TThreadPool,
  type TThreadPoolOptions,
} from '../../lib/create-thread-pool.js';
import { DICOM_DECODE_TOO_BIG, DICOM_DECODE_TOO_SLOW, DICOM_DECODER_BUSY } from '@contracts/dicom-limits.js';
import type { TThreadDecodedDicom } from './decode-dicom-thread.js';

export type TDicomDecodePool = TThreadPool<Uint8Array, TThreadDecodedDicom>;

/**
 * One thread: a DICOM at the pixel budget (64 MB of 16-bit samples) takes a few hundred MB while
 * it decodes, and the server shares two cores with the analysis worker. The limits are far above
 * what a real film needs (a 3000×3000 16-bit DX decodes in about a second).
 */
export const DICOM_POOL_DEFAULTS: Omit<TThreadPoolOptions, 'entry'> = {
  threads: 1,
  queueLimit: 16,
  timeLimitMs: 20_000,
  resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
  rssBudgetMb: 768,
  idleMs: 10_000,
};

export function createDicomDecodePool(overrides: Partial<Omit<TThreadPoolOptions, 'entry'>> = {}): TDicomDecodePool {
  return createThreadPool({
    ...DICOM_POOL_DEFAULTS,
    ...overrides,
    entry: new URL('./decode-dicom-thread.ts', import.meta.url),
  });
}

let shared: TDicomDecodePool | undefined;

/** The server's pool, started on the first DICOM upload. */
export function dicomDecodePool(): TDicomDecodePool {
  shared ??= createDicomDecodePool();
  return shared;
}

/** A thread that had to be stopped becomes the refusal the uploader sees. */
function refusalOf(err: unknown): unknown {
  if (!(err instanceof ThreadJobError)) return err;
  switch (err.kind) {
    case 'timeout':
      return new AppError('PAYLOAD_TOO_LARGE', DICOM_DECODE_TOO_SLOW, { cause: err });
    case 'memory':
      return new AppError('PAYLOAD_TOO_LARGE', DICOM_DECODE_TOO_BIG, { cause: err });
    case 'busy':
      return new AppError('UNAVAILABLE', DICOM_DECODER_BUSY, { cause: err });
    case 'crashed':
      return new AppError('BAD_REQUEST', 'The DICOM file could not be read', { cause: err });
  }
}

/** Decodes off the event loop; the caller's buffer is copied once and the copy handed over. */
export async function decodeDicomInThread(opts: {
  bytes: Uint8Array;
  pool?: TDicomDecodePool;
  timeLimitMs?: number;
}): Promise<TThreadDecodedDicom> {
  // A real copy (Buffer#slice is a view): the transfer detaches it, never the caller's buffer.
  const copy = new Uint8Array(opts.bytes);
  try {
    return await (opts.pool ?? dicomDecodePool()).run(copy, { transfer: [copy.buffer], timeLimitMs: opts.timeLimitMs });
  } catch (err) {
    throw refusalOf(err);
  }
}
