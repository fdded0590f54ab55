import { z } from 'zod';
import { baseConfigShape } from './base-config.js';
import { parseEnv } from './parse-env.js';

/** The worker's settings: the base part and how this process runs jobs and inference. */
export const ZWorkerConfig = z.object({
  ...baseConfigShape,
  /** Analyses this process runs at once. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(1),
  /** A job whose worker died is handed to another after this long without a lock renewal. */
  WORKER_LOCK_MS: z.coerce.number().int().min(1).default(30_000),
  WORKER_STALLED_MS: z.coerce.number().int().min(1).default(30_000),
  /**
   * The niceness of the shadow process (issue 47): shadow models run in a child process at this
   * priority, so the operating system gives a live analysis the CPU first. 0-19; 19 the lowest.
   */
  SHADOW_NICE: z.coerce.number().int().min(0).max(19).default(19),
  /** Threads per inference; one by default so several worker processes can share a CPU. */
  ORT_INTRA_OP_THREADS: z.coerce.number().int().min(1).default(1),
  /**
   * Test-only seam for the fault-injection tests (tests/reliability/faults-*): with NODE_ENV=test
   * a delay in ms makes inference slow (a window to kill the worker in) and 'hang' makes it never
   * finish. Ignored in every other environment.
   */
  CXR_TEST_INFERENCE_DELAY_MS: z.union([z.literal('hang'), z.coerce.number().int().min(0)]).optional(),
});
export type TWorkerConfig = z.infer<typeof ZWorkerConfig>;

export function loadWorkerConfig(env: Record<string, string | undefined> = process.env): TWorkerConfig {
  return parseEnv(ZWorkerConfig, env);
}
