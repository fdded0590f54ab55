import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { torchxrayvisionManifest } from '../../worker/src/models/build-manifest.js';
import { importModel, ImportRefused, type TImportOptions } from '../../worker/src/models/import-model.js';
import { productFindings } from '../../worker/src/models/product-findings.js';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';
import { xrvGraphManifest, xrvShapedOnnx } from '../helpers/onnx-graph.js';

/**
 * Issue 47: an imported classifier runs behind the shipped anatomy stage, so it gets the same
 * chest-film gate (a CT slice is refused, not read for pneumonia), the measured heart, and may ask
 * for the lung-field crop. The graphs are built here (tests/helpers/onnx-graph.ts).
 */
let work: string;
let registryDir: string;
const SHIPPED = 'models/cxr';
const FILM = 'tests/fixtures/cxr/pneumonia-bacterial-kermany-person1307-bacteria-3278.jpg';
const NOT_A_CHEST = ['ct_slice.png', 'document.png', 'other_body_part.png', 'photo_synthetic.jpg'];

async function onnxFile(name: string): Promise<string> {
  const p = path.join(work, `${name}.onnx`);
  await writeFile(p, xrvShapedOnnx());
  return p;
}

const importAs = async (name: string, extra: Partial<TImportOptions> = {}) => {
  await importModel({
    file: await onnxFile(name),
    contract: 'torchxrayvision',
    name,
    registryDir,
    shippedDir: SHIPPED,
    maxBytes: 64 * 1024 * 1024,
    importedBy: 'test-admin',
    ...extra,
  });
  return loadModel(path.join(registryDir, name));
};

/** The same classifier served the way imports were before: no stage in front of it. */
async function bareFolder(): Promise<string> {
  const dir = path.join(work, 'bare');
  await mkdir(dir);
  const bytes = xrvShapedOnnx();
  await writeFile(path.join(dir, 'model.onnx'), bytes);
  const manifest = torchxrayvisionManifest({
    name: 'bare',
    version: '1',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    opset: 17,
    inputName: 'img',
    outputName: 'logits',
    displays: await productFindings(SHIPPED),
  });
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

/** A manifest-contract import of the same graph, with `crop` and any extra fields. */
async function manifestImport(name: string, crop: string, extra: Record<string, unknown> = {}) {
  const mf = path.join(work, `${name}.json`);
  await writeFile(
    mf,
    JSON.stringify({
      ...xrvGraphManifest(['atelectasis', 'pleural_effusion'], { scale: 8, mean: [1024], std: [1], crop }),
      ...extra,
    }),
  );
  return importAs(name, { contract: 'manifest', manifestFile: mf });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cxr-borrow-'));
  registryDir = path.join(work, 'registry');
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('an imported model behind the shipped anatomy stage (issue 47)', () => {
  test('a CT slice or a document: read for findings without the stage, refused as not a chest film with it', async () => {
    const bare = await loadModel(await bareFolder());
    const imported = await importAs('xrv');
    assert.equal(imported.manifest.anatomy?.file, 'anatomy-stage.onnx');
    for (const name of NOT_A_CHEST) {
      const image = await readFile(path.join('tests/fixtures/gate', name));
      assert.equal((await runPipeline(image, bare)).gate.accepted, true, `the hole this closes: ${name} was read`);
      const r = await runPipeline(image, imported);
      assert.deepEqual([r.gate.accepted, r.gate.code, r.findings.length], [false, 'not_cxr', 0], name);
    }
  });

  test('a chest film keeps the measured heart and the imported findings', async () => {
    const film = await readFile(FILM);
    const imported = await runPipeline(film, await loadModel(path.join(registryDir, 'xrv')));
    const shipped = await runPipeline(film, await loadModel(SHIPPED));
    assert.equal(imported.gate.accepted, true);
    assert.equal(imported.modelName, 'xrv');
    assert.equal(imported.findings.length, 15);
    // The anatomy stage is the shipped one: the same measured CTR on the same film.
    assert.ok(shipped.anatomy?.ctr != null, 'the shipped model measures this film');
    assert.equal(imported.anatomy?.ctr, shipped.anatomy?.ctr);
  });

  test('a manifest may ask for the lung-field crop: the classifier then sees other pixels than the centred square', async () => {
    const film = await readFile(FILM);
    const centre = await runPipeline(film, await manifestImport('own-centre', 'centre'));
    const lung = await runPipeline(film, await manifestImport('own-lung', 'lung-box'));
    assert.equal(lung.gate.accepted, true);
    const p = (r: typeof lung) => r.findings.map((f) => f.probability);
    assert.notDeepEqual(p(lung), p(centre));
  });

  test('a manifest bringing its own anatomy stage or gate is refused', async () => {
    const err = await manifestImport('own-gate', 'centre', {
      gate: { output: 'logits', activation: 'sigmoid', labels: ['x'], rejectLabel: 'x', rejectThreshold: 0.5 },
    }).catch((e: unknown) => e);
    assert.ok(err instanceof ImportRefused);
    assert.match(err.message, /brings no anatomy stage or gate of its own/);
  });

  test("the model's folder keeps its own copy of the stage, checked by sha256 at load", async () => {
    const dir = path.join(registryDir, 'xrv');
    await writeFile(path.join(dir, 'anatomy-stage.onnx'), 'tampered');
    await assert.rejects(loadModel(dir), /sha256 of .*anatomy-stage\.onnx/);
  });
});
