import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { parseModelManifest, type TModelManifest } from '@contracts/model/manifest.js';
import { borrowAnatomyStage } from '../../worker/src/models/borrow-anatomy-stage.js';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';
import { torchxrayvisionManifest } from '../../worker/src/models/build-manifest.js';
import { productFindings } from '../../worker/src/models/product-findings.js';
import { xrvShapedOnnx } from '../helpers/onnx-graph.js';

/**
 * Issue 47: an imported classifier runs behind the shipped anatomy stage, so it gets the same
 * chest-film gate (a photograph is refused, not read for pneumonia), the measured heart, and may
 * ask for the lung-field crop. The graph is built here (tests/helpers/onnx-graph.ts).
 */
let work: string;
const SHIPPED = 'models/cxr';
const FILM = 'tests/fixtures/cxr/pneumonia-bacterial-kermany-person1307-bacteria-3278.jpg';
const NOT_A_CHEST = ['ct_slice.png', 'document.png', 'other_body_part.png', 'photo_synthetic.jpg'];

async function folder(name: string, opts: { borrow: boolean; crop?: 'centre' | 'lung-box' }): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir);
  const bytes = xrvShapedOnnx();
  await writeFile(path.join(dir, 'model.onnx'), bytes);
  const raw = torchxrayvisionManifest({
    name,
    version: '1',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    opset: 17,
    inputName: 'img',
    outputName: 'logits',
    displays: await productFindings(SHIPPED),
  });
  const parsed = parseModelManifest(raw);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  let manifest: TModelManifest = parsed.manifest;
  if (opts.borrow) manifest = await borrowAnatomyStage(manifest, SHIPPED, dir);
  manifest = { ...manifest, input: { ...manifest.input, crop: opts.crop ?? 'centre' } };
  const checked = parseModelManifest(manifest);
  assert.ok(checked.ok, checked.ok ? '' : checked.error);
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cxr-borrow-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('an imported model behind the shipped anatomy stage (issue 47)', () => {
  test('without the stage a CT slice or a document is read for findings; with it, each is refused as not a chest film', async () => {
    const bare = await loadModel(await folder('bare', { borrow: false }));
    const behind = await loadModel(await folder('behind', { borrow: true }));
    for (const name of NOT_A_CHEST) {
      const image = await readFile(path.join('tests/fixtures/gate', name));
      const read = await runPipeline(image, bare);
      assert.equal(read.gate.accepted, true, `the hole this closes: a bare imported model reads ${name}`);
      const r = await runPipeline(image, behind);
      assert.deepEqual([r.gate.accepted, r.gate.code, r.findings.length], [false, 'not_cxr', 0], name);
    }
  });

  test('a chest film keeps the measured heart and the imported findings, centre-cropped', async () => {
    const film = await readFile(FILM);
    const behind = await runPipeline(film, await loadModel(await folder('centre', { borrow: true })));
    const shipped = await runPipeline(film, await loadModel(SHIPPED));
    assert.equal(behind.gate.accepted, true);
    assert.equal(behind.modelName, 'centre');
    assert.equal(behind.findings.length, 15);
    // The anatomy stage is the shipped one: the same measured CTR on the same film.
    assert.ok(shipped.anatomy?.ctr != null, 'the shipped model measures this film');
    assert.equal(behind.anatomy?.ctr, shipped.anatomy?.ctr);
  });

  test('a lung-box manifest sees the lung field: its outputs differ from the centred square', async () => {
    const film = await readFile(FILM);
    const centre = await runPipeline(film, await loadModel(await folder('c2', { borrow: true })));
    const lung = await runPipeline(film, await loadModel(await folder('lung', { borrow: true, crop: 'lung-box' })));
    assert.equal(lung.gate.accepted, true);
    const p = (r: typeof lung) => r.findings.map((f) => f.probability);
    assert.notDeepEqual(p(lung), p(centre));
  });

  test('a model folder keeps its own copy of the stage, checked by sha256 at load', async () => {
    const dir = await folder('own', { borrow: true });
    const m = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as TModelManifest;
    assert.equal(m.anatomy?.file, 'anatomy-stage.onnx');
    await writeFile(path.join(dir, 'anatomy-stage.onnx'), 'tampered');
    await assert.rejects(loadModel(dir), /sha256 of .*anatomy-stage\.onnx/);
  });
});
