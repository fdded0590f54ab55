import assert from 'node:assert/strict';
import sharp from 'sharp';
import { test } from 'vitest';
import { blendHeatmap } from '../../worker/src/pipeline/blend-heatmap.js';
import {
  colourMap,
  OVERLAY_LUT,
  overlayAlpha,
  overlayCodingFor,
  drawOverlay,
  drawOverlayOnImage,
} from '../../worker/src/pipeline/draw-overlay.js';
import { analyseFilm, loadModel } from '../../worker/src/pipeline/run-pipeline.js';
import { MODEL_DIR, modelInstalled, radiograph } from '../analysis/support/fixtures.js';

// A 24 x 20 heatmap over a film of 600 x 660: each cell covers 25 x 33 pixels. The "lung" is
// columns 4..19, rows 3..16; outside it the map is 0, as lungHeatmaps() leaves it.
const GW = 24;
const GH = 20;
const inLung = (x: number, y: number): boolean => x >= 4 && x <= 19 && y >= 3 && y <= 16;
const HOT = { x: 8, y: 8, v: 1 };
const COLD = { x: 15, y: 12, v: 0.35 };

function lungMap(): Float32Array {
  const data = new Float32Array(GW * GH);
  for (let y = 0; y < GH; y++) for (let x = 0; x < GW; x++) if (inLung(x, y)) data[y * GW + x] = 0.1;
  // 3 x 3 blocks, so the block's middle cell samples its own value whatever the interpolation.
  for (const c of [HOT, COLD])
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) data[(c.y + dy) * GW + c.x + dx] = c.v;
  return data;
}

async function rgbOf(png: Buffer) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, info };
}

const cellCentre = (cx: number, cy: number, w: number, h: number) => ({
  x: Math.floor(((cx + 0.5) * w) / GW),
  y: Math.floor(((cy + 0.5) * h) / GH),
});

test("the overlay is the stored image's size, coloured by the colour map, and the film outside the lungs", async () => {
  const stored = await radiograph({ side: 600 });
  const film = await sharp(stored).greyscale().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = film.info;
  const png = await drawOverlayOnImage(stored, { label: 'pneumonia', width: GW, height: GH, data: lungMap() });
  const meta = await sharp(png).metadata();
  assert.equal(meta.format, 'png');
  assert.deepEqual([meta.width, meta.height, meta.channels], [width, height, 3]);
  const { data } = await rgbOf(png);

  for (const c of [HOT, COLD]) {
    const { x, y } = cellCentre(c.x, c.y, width, height);
    const g = film.data[y * width + x]!;
    const a = overlayAlpha(c.v);
    const want = colourMap(c.v).map((col) => g * (1 - a) + col * a);
    const got = [0, 1, 2].map((k) => data[(y * width + x) * 3 + k]!);
    got.forEach((v, k) =>
      assert.ok(Math.abs(v - want[k]!) <= 2, `cell (${c.x}, ${c.y}) channel ${k}: ${v} vs ${want[k]!.toFixed(1)}`),
    );
  }
  assert.ok(overlayAlpha(HOT.v) > 0.5 && overlayAlpha(COLD.v) > 0, 'both test cells are drawn');

  // Outside the lung mask, a cell away from its edge (bilinear upsampling blends neighbours), every pixel is the film's.
  let checked = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cx = Math.floor(((x + 0.5) * GW) / width);
      const cy = Math.floor(((y + 0.5) * GH) / height);
      let nearLung = false;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) nearLung ||= inLung(cx + dx, cy + dy);
      if (nearLung) continue;
      const g = film.data[y * width + x]!;
      const i = (y * width + x) * 3;
      assert.ok(data[i] === g && data[i + 1] === g && data[i + 2] === g, `pixel (${x}, ${y}) is not the film's`);
      checked++;
    }
  }
  assert.ok(checked > width * height * 0.2, 'a good part of the film lies outside the lungs');
});

test('over a JPEG film the overlay is a JPEG of the same look; over anything else a PNG', async () => {
  assert.equal(overlayCodingFor('image/jpeg'), 'image/jpeg');
  for (const other of ['image/png', 'image/webp', 'application/dicom'])
    assert.equal(overlayCodingFor(other), 'image/png');

  const stored = await radiograph({ side: 600 });
  const heatmap = { label: 'pneumonia', width: GW, height: GH, data: lungMap() };
  const jpeg = await drawOverlayOnImage(stored, heatmap, 'image/jpeg');
  const png = await drawOverlayOnImage(stored, heatmap);
  const meta = await sharp(jpeg).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height, meta.channels], ['jpeg', 600, 660, 3]);
  assert.ok(jpeg.length < png.length / 2, `the JPEG (${jpeg.length} B) is much smaller than the PNG (${png.length} B)`);
  // The same picture up to JPEG's loss at the stored quality: every channel close, on average very close.
  const [a, b] = [(await rgbOf(jpeg)).data, (await rgbOf(png)).data];
  let sum = 0;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    sum += d;
    worst = Math.max(worst, d);
  }
  assert.ok(sum / a.length < 1.5, `mean difference ${(sum / a.length).toFixed(2)}`);
  assert.ok(worst <= 40, `largest difference ${worst}`);
  const { x, y } = cellCentre(HOT.x, HOT.y, 600, 660);
  const i = (y * 600 + x) * 3;
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(a[i + k]! - b[i + k]!) <= 6, `hot cell channel ${k}`);
});

test('a map that is cold everywhere leaves the film untouched', async () => {
  const stored = await radiograph({ side: 301 });
  const film = await sharp(stored).greyscale().raw().toBuffer();
  const png = await drawOverlayOnImage(stored, {
    label: 'x',
    width: 4,
    height: 4,
    data: new Float32Array(16).fill(0.2),
  });
  const { data } = await rgbOf(png);
  for (let i = 0; i < film.length; i++) assert.ok(data[i * 3] === film[i] && data[i * 3 + 2] === film[i]);
});

test('films whose bytes are not word-aligned, or whose pixel count is odd, are copied exactly', () => {
  const width = 7;
  const height = 5;
  const backing = new Uint8Array(width * height + 1).map((_, i) => (i * 37) % 256);
  const film = { width, height, data: backing.subarray(1) };
  const rgb = blendHeatmap(film, { label: 'x', width: 2, height: 2, data: [0, 0, 0, 0] }, OVERLAY_LUT);
  assert.equal(rgb.length, width * height * 3);
  for (let i = 0; i < width * height; i++) for (let k = 0; k < 3; k++) assert.equal(rgb[i * 3 + k], film.data[i]);
});

test.skipIf(!modelInstalled())(
  "the pipeline hands over its film at the stored image's size and the overlay matches it",
  async () => {
    const model = await loadModel(MODEL_DIR);
    const stored = await radiograph({ label: 'pneumonia', side: 700 });
    const meta = await sharp(stored).metadata();
    const { result, film } = await analyseFilm(stored, model);
    assert.ok(film && result.gate.accepted);
    assert.deepEqual([film.width, film.height], [meta.width, meta.height]);
    const heatmap = result.heatmaps[0];
    if (!heatmap) return;
    const png = await drawOverlay(film, heatmap);
    const out = await sharp(png).metadata();
    assert.deepEqual([out.width, out.height], [meta.width, meta.height]);
    assert.deepEqual(png, await drawOverlayOnImage(stored, heatmap), 'the same overlay as from the stored bytes');
  },
);
