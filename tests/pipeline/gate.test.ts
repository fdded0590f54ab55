import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'vitest';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import { refusalText } from '../../server/src/services/analysis/refusal-text.js';
import { loadModel, runPipeline, type GateVerdict } from '../../worker/src/pipeline/run-pipeline.js';

// The model under test: MODEL_DIR, else models/cxr.
const model = await loadModel(loadBaseConfig().MODEL_DIR);
// The worker sends the refusal's code; this is the sentence the server writes for it.
const sentence = (gate: GateVerdict): string => (gate.code ? refusalText(gate.code, gate.minSide) : '');
const run = async (file: string) => runPipeline(await readFile(file), model);

const refusedWith = async (file: string, code: string, words: RegExp) => {
  const r = await run(file);
  assert.equal(r.gate.accepted, false, `${file} should be refused`);
  assert.equal(r.gate.code, code);
  assert.match(sentence(r.gate), words);
  assert.deepEqual(r.findings, []);
  assert.deepEqual(r.heatmaps, []);
};

test('a colour photograph is refused as colour', () =>
  refusedWith('tests/fixtures/gate/colour-photo.jpg', 'colour', /colour/));
test('a uniform image is refused as low quality', () =>
  refusedWith('tests/fixtures/gate/uniform-gray.png', 'blank', /uniform/));
test('a tiny image is refused as too small', () =>
  refusedWith('tests/fixtures/gate/too-small.png', 'too_small', /too small/));
test('a banner-shaped image is refused for its aspect ratio', () =>
  refusedWith('tests/fixtures/gate/wide-banner.png', 'aspect_ratio', /aspect ratio/));

for (const name of ['document.png', 'screenshot.png', 'ct_slice.png']) {
  test(`a ${name.split('.')[0]} is refused with a reason`, async () => {
    const r = await run(`tests/fixtures/gate/${name}`);
    assert.equal(r.gate.accepted, false);
    assert.ok(sentence(r.gate).length > 10);
    assert.deepEqual(r.findings, []);
  });
}

test('bytes that are not an image are refused, not thrown', async () => {
  const r = await runPipeline(Buffer.from('this is not an image'), model);
  assert.equal(r.gate.accepted, false);
  assert.equal(r.gate.code, 'undecodable');
  assert.deepEqual(r.image, { width: 0, height: 0 });
});

test('test-split radiographs are accepted with findings and heatmaps', async () => {
  const files = (await readdir('tests/fixtures/cxr')).filter((f) => f.endsWith('.jpg'));
  assert.ok(files.length >= 5);
  for (const f of files) {
    const r = await run(`tests/fixtures/cxr/${f}`);
    assert.equal(r.gate.accepted, true, f);
    assert.ok(!r.gate.flags.includes('inverted'), f);
    // A finding that needs the measured heart is "not measurable" on a film without a plausible CTR.
    const noCtr = (r.notAssessed ?? []).filter((n) => 'code' in n && n.code === 'no_ctr').length;
    assert.equal(r.findings.length + noCtr, model.findings.length);
    assert.ok(r.heatmaps.length > 0);
    for (const h of r.heatmaps) assert.ok(Array.from(h.data).every((v) => v >= 0 && v <= 1));
    assert.ok(
      r.topFinding === null ||
        r.findings.some((x) => x.label === r.topFinding && (x.call === 'positive' || x.call === 'possible')),
    );
  }
});

test('an inverted radiograph is accepted, flagged and classified the right way round', async () => {
  const r = await run('tests/fixtures/gate/inverted-radiograph.png');
  assert.equal(r.gate.accepted, true);
  assert.ok(r.gate.flags.includes('inverted'));
  const cxr = (await readdir('tests/fixtures/cxr')).filter((f) => f.endsWith('.jpg')).sort()[0]!;
  const upright = await run(`tests/fixtures/cxr/${cxr}`);
  for (const [i, f] of r.findings.entries())
    assert.ok(Math.abs(f.probability - upright.findings[i]!.probability) < 0.05, f.label);
});

test('a low-contrast radiograph is flagged', async () => {
  const r = await run('tests/fixtures/gate/low-contrast-radiograph.png');
  assert.ok(r.gate.flags.includes('low_contrast'));
});

test("the refusal sentences are the product's, and too_small quotes the model's minimum side", async () => {
  const r = await run('tests/fixtures/gate/too-small.png');
  assert.equal(r.gate.minSide, model.checks.minSide);
  assert.equal(
    sentence(r.gate),
    `The image is too small to analyse (shortest side under ${model.checks.minSide} pixels).`,
  );
  assert.deepEqual(
    (['undecodable', 'aspect_ratio', 'colour', 'blank', 'not_cxr'] as const).map((code) => refusalText(code)),
    [
      'The file could not be read as an image.',
      'The image has an extreme aspect ratio for a chest radiograph.',
      'The image appears to be a colour photograph or illustration, not a chest radiograph.',
      'The image is almost uniform and too low in quality to analyse.',
      'The image does not look like a frontal chest radiograph.',
    ],
  );
});
