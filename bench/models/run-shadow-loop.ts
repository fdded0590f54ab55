/**
 * The shadow side of bench/models/bench.ts, as its own process (as the worker's shadow process
 * is): lowers its priority to argv[3], loads the model in argv[2] and runs its pipeline on the
 * fixture films over and over until killed, sending each study's time and its RSS to the parent.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import path from 'node:path';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';

const [dir, nice] = process.argv.slice(2);
setPriority(Number(nice ?? 0));
const model = await loadModel(dir!);
const names = readdirSync('tests/fixtures/cxr').filter((f) => f.endsWith('.jpg'));
const films = await Promise.all(names.map((f) => readFile(path.join('tests/fixtures/cxr', f))));
await runPipeline(films[0]!, model);
process.send?.({ ready: true, rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024) });
for (let i = 0; ; i++) {
  const t = performance.now();
  await runPipeline(films[i % films.length]!, model);
  process.send?.({ ms: performance.now() - t });
}
