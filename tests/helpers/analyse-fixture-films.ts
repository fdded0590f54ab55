import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import type { TAnalysisResultJob } from '@contracts/queues.js';
import { ZWorkerResult, type TStoredResult } from '@contracts/schemas/analysis.js';
import { createAnalysisProcessor } from '../../worker/src/jobs/process-analysis.js';
import type { WorkerDeps } from '../../worker/src/worker-deps.js';
import { withholdByAge } from '../../server/src/services/analysis/withhold-by-age.js';
import { wordWorkerResult } from '../../server/src/services/analysis/word-worker-result.js';

/** Every committed radiograph fixture (tests/fixtures/cxr and xray): the only films tests read. */
export const FIXTURE_FILMS: readonly string[] = ['tests/fixtures/cxr', 'tests/fixtures/xray'].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.jpg'))
    .sort()
    .map((f) => join(dir, f)),
);

/**
 * Each film through the worker's real analysis job (the shipped ONNX models in `modelDir`), with
 * in-memory stand-ins for the image store, Redis and the result queue, then worded and withheld
 * by age as the finalizer does: the stored result a report is drafted from.
 */
export async function analyseFixtureFilms(modelDir: string, age: number | null): Promise<Map<string, TStoredResult>> {
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
  const out = new Map<string, TStoredResult>();
  for (const film of FIXTURE_FILMS) {
    stored.set('upload', await readFile(film));
    const job = {
      data: { analysisId: randomUUID(), storageKey: 'upload', mediaType: 'image/jpeg' },
      updateProgress: () => Promise.resolve(),
    } as unknown as Job;
    await processor(job);
    const worded = wordWorkerResult(ZWorkerResult.parse(results.at(-1)!.result));
    out.set(film, withholdByAge(worded, age).result);
  }
  return out;
}
