import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ZWorkerResult, type TStoredResult } from '@contracts/schemas/analysis.js';
import { withholdByAge } from '../../server/src/services/analysis/withhold-by-age.js';
import { wordWorkerResult } from '../../server/src/services/analysis/word-worker-result.js';
import { createMemoryWorker } from './create-memory-worker.js';

/** Every committed radiograph fixture (tests/fixtures/cxr and xray): the only films tests read. */
export const FIXTURE_FILMS: readonly string[] = ['tests/fixtures/cxr', 'tests/fixtures/xray'].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.jpg'))
    .sort()
    .map((f) => join(dir, f)),
);

/**
 * Each film through the worker's real analysis job (the shipped ONNX models in `modelDir`, run in
 * memory by createMemoryWorker), then worded and withheld by age as the finalizer does: the stored
 * result a report is drafted from.
 */
export async function analyseFixtureFilms(modelDir: string, age: number | null): Promise<Map<string, TStoredResult>> {
  const run = createMemoryWorker(modelDir);
  const out = new Map<string, TStoredResult>();
  for (const film of FIXTURE_FILMS) {
    const { payload } = await run(film);
    const worded = wordWorkerResult(ZWorkerResult.parse(payload.result));
    out.set(film, withholdByAge(worded, age).result);
  }
  return out;
}
