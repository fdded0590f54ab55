import { HEAT_GRID_MAX_SIDE, type THeatGrid } from '@contracts/heat-grid.js';
import type { Heatmap } from './types.js';

/**
 * A heatmap as the stored grid (contracts/heat-grid.ts): averaged down by a whole factor to at
 * most HEAT_GRID_MAX_SIDE a side (the anatomy grid, 128, becomes 64: the CAM it was sampled from
 * has 7-14 cells a side, so nothing is lost) and quantised to bytes. Pure.
 */
export function heatGrid(map: Heatmap): THeatGrid {
  const f = Math.max(1, Math.ceil(Math.max(map.width, map.height) / HEAT_GRID_MAX_SIDE));
  const width = Math.ceil(map.width / f);
  const height = Math.ceil(map.height / f);
  const bytes = Buffer.alloc(width * height);
  for (let i = 0; i < height; i++) {
    for (let j = 0; j < width; j++) {
      let sum = 0;
      let n = 0;
      for (let y = i * f; y < Math.min(map.height, (i + 1) * f); y++)
        for (let x = j * f; x < Math.min(map.width, (j + 1) * f); x++, n++) sum += map.data[y * map.width + x]!;
      bytes[i * width + j] = Math.round(255 * Math.min(1, Math.max(0, sum / n)));
    }
  }
  return { width, height, values: bytes.toString('base64') };
}
