import assert from 'node:assert/strict';
import { test } from 'vitest';
import { colourMap, MAX_ALPHA } from '@contracts/heatmap-look.js';
import { heatLayerSize, paintHeat } from '../../client/src/features/chat/lib/paint-heat.js';

// Issue 42: the viewer paints each flagged finding's heatmap from its kept heat values
// (client/src/features/chat/components/heatmap-layer.tsx), in the worker's look.
const grid = (bytes: number[], width: number, height: number) => ({
  width,
  height,
  values: Buffer.from(bytes).toString('base64'),
});

test('cold cells stay transparent, full heat takes the colour map at the overlay opacity', () => {
  const px = paintHeat(grid([0, 255, 0, 255], 2, 2), 2, 2)!;
  assert.equal(px[3], 0, 'no heat: nothing drawn');
  assert.deepEqual([...px.subarray(4, 7)], colourMap(1));
  assert.equal(px[7], Math.round(MAX_ALPHA * 255));
});

test('the layer keeps the film aspect and a corrupt grid paints nothing', () => {
  assert.deepEqual(heatLayerSize({ width: 3000, height: 2400 }), { width: 256, height: 205 });
  const px = paintHeat(grid([0, 128, 255, 0, 128, 255], 3, 2), 256, 205)!;
  assert.equal(px.length, 256 * 205 * 4);
  assert.equal(paintHeat(grid([1, 2, 3], 2, 2), 4, 4), null);
});
