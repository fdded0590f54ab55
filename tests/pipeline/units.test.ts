import assert from 'node:assert/strict';
import { test } from 'vitest';
import sharp from 'sharp';
import { callOf } from '../../worker/src/pipeline/compose.js';
import { drawOverlayOnImage } from '../../worker/src/pipeline/run-pipeline.js';
import { areaWeights, resizeArea, toGray } from '../../worker/src/pipeline/preprocess.js';

test('box-filter weights average exactly the covered input span', () => {
  for (const [nIn, nOut] of [
    [224, 128],
    [128, 128],
    [1000, 128],
    [100, 128],
  ] as const) {
    const spans = areaWeights(nIn, nOut);
    assert.equal(spans.length, nOut);
    for (const s of spans) assert.ok(Math.abs(s.weights.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  }
  const flat = resizeArea(new Uint8Array(300 * 200).fill(77), 300, 200, 128, 128);
  assert.ok(flat.every((v) => Math.abs(v - 77) < 1e-9));
});

test('gray conversion uses integer BT.601 weights and ignores alpha', () => {
  const g = toGray({ width: 2, height: 1, channels: 4, data: new Uint8Array([255, 0, 0, 10, 0, 0, 255, 255]) });
  assert.deepEqual(Array.from(g), [76, 29]);
});

test('calls: positive above the band, negative below, uncertain inside', () => {
  assert.equal(callOf(0.9, 0.5, 0.7), 'positive');
  assert.equal(callOf(0.1, 0.5, 0.7), 'negative');
  assert.equal(callOf(0.55, 0.5, 0.7), 'uncertain');
  assert.equal(callOf(0.55, 0.5, 0), 'positive');
});

test('heatmap overlay is a PNG the size of the image', async () => {
  const img = await sharp({ create: { width: 300, height: 240, channels: 3, background: { r: 90, g: 90, b: 90 } } })
    .png()
    .toBuffer();
  const png = await drawOverlayOnImage(img, { label: 'x', width: 2, height: 2, data: [0, 1, 0.5, 0] });
  const meta = await sharp(png).metadata();
  assert.equal(meta.format, 'png');
  assert.equal(meta.width, 300);
  assert.equal(meta.height, 240);
  assert.equal(meta.channels, 3);
});
