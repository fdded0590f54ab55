import assert from 'node:assert/strict';
import { test } from 'vitest';
import type { Mask } from '../../worker/src/pipeline/anatomy.js';
import { heatmapZones } from '../../worker/src/pipeline/heatmap-zones.js';
import type { Heatmap } from '../../worker/src/pipeline/types.js';

// Two rectangular "lungs" on a 100 x 100 grid: image-left x 10..39 (the patient's right),
// image-right x 60..89 (the patient's left), both rows 10..69, so each third is 20 rows.
const W = 100;

function lungs(): Mask {
  const m: Mask = { width: W, height: W, data: new Uint8Array(W * W) };
  for (let y = 10; y < 70; y++) for (let x = 10; x < 90; x++) if (x < 40 || x >= 60) m.data[y * W + x] = 1;
  return m;
}

function map(label: string, paint: (x: number, y: number) => number, size = W): Heatmap {
  const data = new Float32Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) data[y * size + x] = paint(x, y);
  return { label, width: size, height: size, data };
}

test("mass in the image-left lower third is the patient's right lower zone", () => {
  const [z] = heatmapZones([map('pneumonia', (x, y) => (x < 40 && y >= 50 ? 1 : 0))], lungs());
  assert.equal(z?.label, 'pneumonia');
  assert.equal(z?.zones.right_lower, 1);
  assert.equal(z?.zones.left_lower, 0);
  assert.equal(z?.zones.right_upper, 0);
});

test('mass outside the lung mask does not count; shares sum to one', () => {
  // Heavy mass in the mediastinum (x 40..59) and below the lungs, light mass in the left upper zone.
  const [z] = heatmapZones(
    [map('covid19', (x, y) => (x >= 40 && x < 60 ? 100 : y >= 70 ? 100 : x >= 60 && y < 30 ? 0.5 : 0))],
    lungs(),
  );
  assert.equal(z?.zones.left_upper, 1);
  const sum = Object.values(z!.zones).reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9);
});

test('an even map splits evenly; a map on a coarser grid is sampled at the nearest cell', () => {
  const [even] = heatmapZones([map('a', () => 1)], lungs());
  for (const v of Object.values(even!.zones)) assert.ok(Math.abs(v - 1 / 6) < 0.002, String(v));
  // 10 x 10 map: cells 1..3 of row 1..2 cover the patient's right upper zone only.
  const [coarse] = heatmapZones([map('b', (x, y) => (x >= 1 && x <= 3 && y >= 1 && y <= 2 ? 1 : 0), 10)], lungs());
  assert.equal(coarse?.zones.right_upper, 1);
});

test('middle zone, several maps, and nothing for an empty map or an empty mask', () => {
  const out = heatmapZones(
    [map('mid', (x, y) => (x >= 60 && y >= 30 && y < 50 ? 1 : 0)), map('empty', () => 0)],
    lungs(),
  );
  assert.deepEqual(
    out.map((z) => z.label),
    ['mid'],
  );
  assert.equal(out[0]?.zones.left_middle, 1);
  assert.deepEqual(heatmapZones([map('a', () => 1)], { width: W, height: W, data: new Uint8Array(W * W) }), []);
});

test('lungs of different heights are each cut into their own thirds', () => {
  const m = lungs();
  // Patient's left lung (image right) only rows 10..39: its thirds are 10 rows each.
  for (let y = 40; y < 70; y++) for (let x = 60; x < 90; x++) m.data[y * W + x] = 0;
  const [z] = heatmapZones([map('a', (x, y) => (x >= 60 && y >= 30 && y < 40 ? 1 : 0))], m);
  assert.equal(z?.zones.left_lower, 1);
});
