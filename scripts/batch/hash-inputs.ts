import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { TBatchInput } from './list-inputs.js';

/** An input that cannot be read: the run stops before the first upload and names it. */
export class InputError extends Error {}

export interface THashedInput {
  input: TBatchInput;
  sha256: string;
}

/** Files hashed at once: each holds one file handle and one 64 KiB read buffer, nothing more. */
export const HASH_CONCURRENCY = 8;

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Streams every input through sha256 with at most HASH_CONCURRENCY files open. Reading them
 * all at once held every image in memory (10 GB for 5,000 films) and ran out of file handles.
 * Unreadable inputs are collected and reported together, so one run lists every broken row.
 */
export async function hashInputs(
  inputs: readonly TBatchInput[],
  concurrency = HASH_CONCURRENCY,
): Promise<THashedInput[]> {
  const out: THashedInput[] = new Array<THashedInput>(inputs.length);
  const unreadable: string[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < inputs.length; i = next++) {
      const input = inputs[i]!;
      try {
        out[i] = { input, sha256: await sha256Of(input.absPath) };
      } catch (err) {
        unreadable.push(
          `${input.where ?? input.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, lane));
  if (unreadable.length) {
    const shown = unreadable.slice(0, 10).join('\n  ');
    throw new InputError(
      `${unreadable.length} input file(s) cannot be read:\n  ${shown}${unreadable.length > 10 ? '\n  ...' : ''}`,
    );
  }
  return out;
}
