import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Job } from 'bullmq';
import type { TAnalysisResultJob } from '@contracts/queues.js';
import { createAnalysisProcessor } from '../../worker/src/jobs/process-analysis.js';
import type { WorkerDeps } from '../../worker/src/worker-deps.js';

type TProcessor = ReturnType<typeof createAnalysisProcessor>;

/** What one film through the job left behind: its outcome, the payload sent back, and the image store. */
export interface TMemoryRun {
  outcome: Awaited<ReturnType<TProcessor>>;
  payload: TAnalysisResultJob;
  stored: Map<string, Buffer>;
}

/**
 * The worker's real analysis job on the models in `modelDir`, with in-memory stand-ins for the
 * image store, Redis and the result queue, so a test reads what goes back to the server without
 * either running. Each call runs one film (read from disk) and answers the payload it produced.
 */
export function createMemoryWorker(modelDir: string): (file: string) => Promise<TMemoryRun> {
  const stored = new Map<string, Buffer>();
  const results: TAnalysisResultJob[] = [];
  const deps = {
    config: { MODEL_DIR: modelDir, QUEUE_PREFIX: 'test', ANALYSIS_TIMEOUT_MS: 60_000, NODE_ENV: 'production' },
    redis: { publish: () => Promise.resolve(0) },
    images: {
      get: (key: string) => Promise.resolve(stored.get(key)!),
      put: (key: string, data: Buffer) => Promise.resolve(void stored.set(key, data)),
      exists: (key: string) => Promise.resolve(stored.has(key)),
      delete: (key: string) => Promise.resolve(void stored.delete(key)),
    },
    resultQueue: { add: (_name: string, payload: TAnalysisResultJob) => Promise.resolve(void results.push(payload)) },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  } as unknown as WorkerDeps;
  const processor = createAnalysisProcessor(deps);
  return async (file) => {
    stored.set('upload', await readFile(file));
    const job = {
      data: { analysisId: randomUUID(), storageKey: 'upload', mediaType: 'image/jpeg' },
      updateProgress: () => Promise.resolve(),
    } as unknown as Job;
    const outcome = await processor(job);
    return { outcome, payload: results.at(-1)!, stored };
  };
}
