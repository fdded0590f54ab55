import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { XRV_OP_THRESHS, XRV_PATHOLOGIES } from '@contracts/model/torchxrayvision.js';
import { ZRegistryEntry } from '@contracts/model/registry.js';
import { importModel, ImportRefused, type TImportOptions } from '../../worker/src/models/import-model.js';
import { readOnnxHeader } from '../../worker/src/models/read-onnx-header.js';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';
import { xrvGraphManifest, xrvShapedOnnx } from '../helpers/onnx-graph.js';

/**
 * Issue 47: `npm run model -- import` checks an ONNX graph against its contract (torchxrayvision's
 * or a manifest's), runs it on the committed fixture films and writes the registry folder; what
 * does not fit is refused with a message naming it, and nothing is written. The graphs are built
 * here (tests/helpers/onnx-graph.ts), never downloaded.
 */
let work: string;
let registryDir: string;

async function onnxFile(name: string, bytes: Uint8Array): Promise<string> {
  const p = path.join(work, `${name}.onnx`);
  await writeFile(p, bytes);
  return p;
}

const base = (file: string, name: string): TImportOptions => ({
  file,
  contract: 'torchxrayvision',
  name,
  registryDir,
  shippedDir: 'models/cxr',
  maxBytes: 1024 * 1024,
  importedBy: 'test-admin',
});

async function refusal(opts: TImportOptions): Promise<string> {
  const err = await importModel(opts).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof ImportRefused, `expected a refusal, got ${String(err)}`);
  // Nothing of a refused import is left in the registry.
  assert.deepEqual((await readdir(registryDir).catch(() => [])).filter((d) => d.includes(opts.name)), []);
  return err.message;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cxr-import-'));
  registryDir = path.join(work, 'registry');
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('model import (issue 47)', () => {
  test('a torchxrayvision-shaped graph is imported with the manifest it will be served with', async () => {
    const file = await onnxFile('xrv', xrvShapedOnnx());
    assert.equal(readOnnxHeader(await readFile(file)).opset, 17);
    const entry = await importModel({ ...base(file, 'xrv-all'), version: '2' });
    assert.equal(entry.contract, 'torchxrayvision');
    assert.equal(entry.importedBy, 'test-admin');
    assert.equal(entry.operatingPoints, null);
    assert.equal(entry.fixtureRuns.length, 3);
    const dir = path.join(registryDir, 'xrv-all');
    ZRegistryEntry.parse(JSON.parse(await readFile(path.join(dir, 'registry.json'), 'utf8')));
    const model = await loadModel(dir);
    assert.equal(model.manifest.modelVersion, '2');
    assert.equal(model.manifest.input.crop, 'centre');
    assert.deepEqual(model.manifest.heads[0]!.labels, [...XRV_PATHOLOGIES]);
    // Effusion is the product's pleural_effusion, at torchxrayvision's own op_thresh; Fracture maps to nothing.
    const effusion = model.findings.find((f) => f.label === 'pleural_effusion');
    assert.equal(effusion?.threshold, XRV_OP_THRESHS[XRV_PATHOLOGIES.indexOf('Effusion')]);
    assert.equal(effusion?.source.label, 'Effusion');
    assert.equal(model.findings.length, 15);
    // The served model runs in the worker's pipeline: one probability per mapped finding.
    const r = await runPipeline(await readFile('tests/fixtures/cxr/normal-covid-normal-6288.jpg'), model);
    assert.equal(r.gate.accepted, true);
    assert.equal(r.modelName, 'xrv-all');
    assert.equal(r.findings.length, 15);
  });

  test('refusals name what does not fit', async () => {
    assert.match(
      await refusal(base(await onnxFile('rgb', xrvShapedOnnx({ inputShape: [1, 3, 224, 224] })), 'rgb')),
      /the input is float32 \[1, 3, 224, 224\]; torchxrayvision's contract needs float32 \[1, 1, 224, 224\]/,
    );
    assert.match(
      await refusal(base(await onnxFile('two', xrvShapedOnnx({ extraInput: true })), 'two')),
      /the graph has 2 inputs \(img, extra\); a model takes exactly one image input/,
    );
    assert.match(
      await refusal(base(await onnxFile('old', xrvShapedOnnx({ opset: 9 })), 'old')),
      /the graph uses opset 9; the import needs opset 11 or newer/,
    );
    assert.match(
      await refusal(base(await onnxFile('short', xrvShapedOnnx({ outputs: 14 })), 'short')),
      /output logits is \[1, 14\]; head xrv needs \[1, 18\]/,
    );
    const big = await onnxFile('big', xrvShapedOnnx());
    assert.match(await refusal({ ...base(big, 'big'), maxBytes: 1000 }), /the file is 0\.0 MB; the limit is 0\.0 MB/);
    assert.match(await refusal(base(path.join('tests/fixtures/cxr/README.md'), 'text')), /not an ONNX model file/);
  });

  test('a manifest naming findings the product does not know is refused', async () => {
    const file = await onnxFile('m', xrvShapedOnnx());
    const manifest = xrvGraphManifest(['atelectasis', 'dragon_scales']);
    const mf = path.join(work, 'manifest.json');
    await writeFile(mf, JSON.stringify(manifest));
    const opts = { ...base(file, 'own'), contract: 'manifest' as const, manifestFile: mf };
    assert.match(await refusal(opts), /the manifest names findings the product does not know: dragon_scales/);
    // The same manifest with known findings imports, served under the imported file's digest.
    manifest.findings[1]!.label = 'pleural_effusion';
    await writeFile(mf, JSON.stringify(manifest));
    const entry = await importModel(opts);
    const served = JSON.parse(await readFile(path.join(registryDir, 'own', 'manifest.json'), 'utf8')) as {
      sha256: string;
    };
    assert.equal(served.sha256, entry.sha256);
    await assert.rejects(importModel(opts), /a model named own is already in the registry/);
  });
});
