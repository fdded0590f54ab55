import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ZRegistryEntry } from '@contracts/model/registry.js';
import { calibrateModel } from '../../scripts/model/calibrate-model.js';
import { importModel } from '../../worker/src/models/import-model.js';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';
import { xrvShapedOnnx } from '../helpers/onnx-graph.js';

/**
 * Issue 47: an imported model's operating points come only from a labelled cohort
 * (`npm run batch -- cohort.csv --model NAME --calibrate`), measured with the worker's pipeline;
 * a finding with too few films read present and absent gets none, and a cohort giving none is refused.
 */
let work: string;
const dirs = () => ({ shipped: 'models/cxr', registry: path.join(work, 'models') });
const FILMS = [
  ['pneumonia-bacterial-kermany-person1307-bacteria-3278.jpg', 'Pneumonia'],
  ['pneumonia-bacterial-kermany-person876-bacteria-2799.jpg', 'Pneumonia'],
  ['pneumonia-viral-kermany-person1200-virus-2042.jpg', 'Pneumonia'],
  ['normal-kermany-normal2-im-0551-0001.jpg', 'No Finding'],
  ['normal-kermany-normal2-im-0856-0001.jpg', 'No Finding'],
  ['normal-covid-normal-6288.jpg', 'No Finding'],
  ['normal-covid-normal-9806.jpg', 'No Finding'],
  ['covid19-covid-covid-2944.jpg', 'Pneumonia'],
  ['covid19-covid-covid-676.jpg', 'Pneumonia'],
  ['normal-kermany-normal2-im-0551-0001.jpg', 'No Finding'],
] as const;

async function cohort(rows: readonly (readonly [string, string])[]): Promise<string> {
  const csv = path.join(work, `cohort-${rows.length}.csv`);
  for (const [f] of rows) await copyFile(path.join('tests/fixtures/cxr', f), path.join(work, f));
  await writeFile(csv, ['path,findings,patient', ...rows.map(([f, l], i) => `${f},${l},p${i % 4}`)].join('\n'));
  return csv;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cxr-calibrate-'));
  await writeFile(path.join(work, 'x.onnx'), xrvShapedOnnx());
  await importModel({
    file: path.join(work, 'x.onnx'),
    contract: 'torchxrayvision',
    name: 'xrv',
    registryDir: dirs().registry,
    shippedDir: 'models/cxr',
    maxBytes: 1 << 20,
    importedBy: 'test',
  });
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('operating points from a labelled cohort (issue 47)', () => {
  test('too few films read present and absent: refused, nothing written', async () => {
    await assert.rejects(
      calibrateModel({ cohort: await cohort(FILMS.slice(0, 6)), modelId: 'xrv', dirs: dirs() }),
      /no finding has 5 films read present and 5 read absent in 6 accepted films/,
    );
    const entry = ZRegistryEntry.parse(JSON.parse(await readFile(path.join(dirs().registry, 'xrv', 'registry.json'), 'utf8')));
    assert.equal(entry.operatingPoints, null);
  });

  test("Youden's point per finding with enough films, written to registry.json and the served manifest", async () => {
    const points = await calibrateModel({ cohort: await cohort(FILMS), modelId: 'xrv', dirs: dirs() });
    assert.equal(points.studies, 10);
    assert.deepEqual(
      points.findings.map((f) => f.label),
      ['pneumonia'],
    );
    const p = points.findings[0]!;
    assert.equal(p.positives, 5);
    assert.equal(p.negatives, 5);
    // Recomputed here: the model's pneumonia probability on each film, and the best J over every cut.
    const dir = path.join(dirs().registry, 'xrv');
    const model = await loadModel(dir);
    const scores: number[] = [];
    for (const [f] of FILMS)
      scores.push((await runPipeline(await readFile(path.join(work, f)), model)).findings.find((x) => x.label === 'pneumonia')!.probability);
    const present = FILMS.map(([, l]) => l === 'Pneumonia');
    let bestJ = -1;
    for (const t of scores) {
      const sens = scores.filter((s, i) => s >= t && present[i]).length / 5;
      const spec = scores.filter((s, i) => s < t && !present[i]).length / 5;
      bestJ = Math.max(bestJ, sens + spec - 1);
    }
    assert.ok(Math.abs(p.sensitivity + p.specificity - 1 - bestJ) < 1e-12);
    assert.equal(model.findings.find((f) => f.label === 'pneumonia')?.threshold, p.threshold);
    const entry = ZRegistryEntry.parse(JSON.parse(await readFile(path.join(dir, 'registry.json'), 'utf8')));
    assert.deepEqual(entry.operatingPoints, points);
  });
});
