import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile } from 'node:fs/promises';
import { test } from 'vitest';
import sharp from 'sharp';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';

// A random 18-finding sigmoid model on 3-channel 64x64 input, made by
// models/train/cxr_train/export/tiny_model.py: nothing in the pipeline may assume the shipped model.
const TINY = 'tests/fixtures/tiny-model';

test('a different ONNX classifier runs end to end from its manifest alone', async () => {
  const model = await loadModel(TINY);
  const manifest = JSON.parse(await readFile(`${TINY}/manifest.json`, 'utf8')) as { heads: { labels: string[] }[] };
  const labels = manifest.heads[0]!.labels;
  assert.equal(labels.length, 18);

  const image = await readFile('tests/fixtures/cxr/' + (await firstFixture()));
  const r = await runPipeline(image, model);
  assert.equal(r.modelName, 'tiny-18-findings');
  assert.equal(r.gate.accepted, true, 'no gate head: only the deterministic checks apply');
  assert.deepEqual(
    r.findings.map((f) => f.label),
    labels,
  );
  for (const f of r.findings) {
    assert.ok(f.probability >= 0 && f.probability <= 1);
    assert.equal(f.threshold, 0.5);
    assert.ok(['positive', 'negative', 'uncertain'].includes(f.call));
  }
  assert.equal(r.heatmaps.length, 18);
  assert.equal(r.heatmaps[0]!.width, 16);
  assert.ok(r.topFinding === null || (labels.includes(r.topFinding) && r.topFinding !== 'no_finding'));
});

// The pipeline reads no config: the worker and `classify` pass it their config's MODEL_DIR.
test('MODEL_DIR selects the model that classify runs when no --model is given', { timeout: 60_000 }, async () => {
  const file = 'tests/fixtures/cxr/' + (await firstFixture());
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'worker/src/cli/classify.ts', '--jsonl', file],
    { env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', MODEL_DIR: TINY } },
  );
  const line = JSON.parse(stdout.trim()) as { modelName: string; accepted: boolean; refusal: string | null };
  assert.equal(line.modelName, 'tiny-18-findings');
  assert.equal(line.accepted, true);
  assert.equal(line.refusal, null);
});

test('a model whose file does not match the manifest sha256 is refused', async () => {
  const { mkdtemp, writeFile, copyFile } = await import('node:fs/promises');
  const dir = await mkdtemp('/tmp/tiny-model-');
  const m = JSON.parse(await readFile(`${TINY}/manifest.json`, 'utf8')) as Record<string, unknown>;
  await copyFile(`${TINY}/model.onnx`, `${dir}/model.onnx`);
  await writeFile(`${dir}/manifest.json`, JSON.stringify({ ...m, sha256: '0'.repeat(64) }));
  await assert.rejects(loadModel(dir), /sha256/);
});

test('colour input is converted for a 3-channel model without error', async () => {
  const model = await loadModel(TINY);
  const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 120, g: 120, b: 120 } } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="200" height="200"><rect x="50" y="50" width="100" height="100" fill="#333"/></svg>',
        ),
        top: 0,
        left: 0,
      },
    ])
    .png()
    .toBuffer();
  const r = await runPipeline(png, model);
  assert.equal(r.gate.accepted, true);
  assert.equal(r.findings.length, 18);
});

async function firstFixture(): Promise<string> {
  const { readdir } = await import('node:fs/promises');
  const files = (await readdir('tests/fixtures/cxr')).filter((f) => f.endsWith('.jpg')).sort();
  return files[0]!;
}
