import { LUNG_ZONES, type TLungZone } from '@contracts/schemas/analysis.js';
import type { Mask } from './anatomy.js';
import type { Heatmap, HeatmapZones } from './types.js';

/**
 * Where each finding's heatmap mass lies inside the lungs, by zone: the chat's "where is it?"
 * answer quotes these shares as the model's evidence (not as anatomy it measured). Pure.
 *
 * The lung mask is split at the midline (the emptiest column in the middle of the lung fields'
 * extent); each side is cut into upper, middle and lower thirds of its own height. Sides are the
 * patient's: on a frontal film in the standard display the image's left half is the patient's right.
 */

export { LUNG_ZONES };
export type LungZone = TLungZone;
// HeatmapZones lives in types.ts (the result contract) so that it imports nothing back from here.
export type { HeatmapZones };

/** The column that separates the two lungs: the one with the fewest lung pixels in the middle 40 % of their extent. */
function midlineColumn(lung: Mask): number | null {
  const { width, height, data } = lung;
  const cols = new Uint32Array(width);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) cols[x]! += data[y * width + x]!;
  const first = cols.findIndex((c) => c > 0);
  if (first < 0) return null;
  let last = width - 1;
  while (cols[last] === 0) last--;
  const centre = (first + last) / 2;
  const half = Math.max(1, Math.round((last - first) * 0.2));
  let best = Math.round(centre);
  for (let x = Math.round(centre) - half; x <= Math.round(centre) + half; x++) {
    if (x < first || x > last) continue;
    const better = cols[x]! < cols[best]! || (cols[x] === cols[best] && Math.abs(x - centre) < Math.abs(best - centre));
    if (better) best = x;
  }
  return best;
}

/** Top and bottom lung rows (inclusive) of the columns [x0, x1). */
function rowExtent(lung: Mask, x0: number, x1: number): [number, number] | null {
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < lung.height; y++) {
    for (let x = x0; x < x1; x++) {
      if (!lung.data[y * lung.width + x]) continue;
      if (top < 0) top = y;
      bottom = y;
      break;
    }
  }
  return top < 0 ? null : [top, bottom];
}

/** Zone index (0..5, LUNG_ZONES order) of every lung cell, -1 outside the lungs. */
function zoneGrid(lung: Mask): Int8Array | null {
  const mid = midlineColumn(lung);
  if (mid === null) return null;
  const { width, height, data } = lung;
  const grid = new Int8Array(width * height).fill(-1);
  // Image left (x < mid) is the patient's right: zones 0..2; image right: the patient's left, 3..5.
  for (const [side, x0, x1] of [
    [0, 0, mid],
    [3, mid, width],
  ] as const) {
    const rows = rowExtent(lung, x0, x1);
    if (!rows) continue;
    const span = rows[1] - rows[0] + 1;
    for (let y = rows[0]; y <= rows[1]; y++) {
      const third = Math.min(2, Math.floor(((y - rows[0]) * 3) / span));
      for (let x = x0; x < x1; x++) if (data[y * width + x]) grid[y * width + x] = side + third;
    }
  }
  return grid;
}

const round3 = (v: number): number => Math.round(v * 1000) / 1000;

/**
 * Each map's mass per lung zone. A map on another grid than the mask is sampled at the nearest
 * cell. A map with no mass inside the lungs, or a mask without lung, gives no entry.
 */
export function heatmapZones(heatmaps: readonly Heatmap[], lung: Mask): HeatmapZones[] {
  const grid = zoneGrid(lung);
  if (!grid) return [];
  const out: HeatmapZones[] = [];
  for (const map of heatmaps) {
    const mass = new Float64Array(LUNG_ZONES.length);
    if (map.width === lung.width && map.height === lung.height) {
      // The usual case (lung-heatmaps.ts draws on the mask's grid): cell for cell, no resampling.
      const { data } = map;
      for (let k = 0; k < grid.length; k++) {
        const zone = grid[k]!;
        const v = data[k]!;
        if (zone >= 0 && v > 0 && Number.isFinite(v)) mass[zone]! += v;
      }
    } else
      for (let y = 0; y < lung.height; y++) {
        const my = Math.min(map.height - 1, Math.floor(((y + 0.5) * map.height) / lung.height));
        for (let x = 0; x < lung.width; x++) {
          const zone = grid[y * lung.width + x]!;
          if (zone < 0) continue;
          const mx = Math.min(map.width - 1, Math.floor(((x + 0.5) * map.width) / lung.width));
          const v = Number(map.data[my * map.width + mx]);
          if (Number.isFinite(v) && v > 0) mass[zone]! += v;
        }
      }
    const total = mass.reduce((a, b) => a + b, 0);
    if (!(total > 0)) continue;
    const zones = Object.fromEntries(LUNG_ZONES.map((z, i) => [z, round3(mass[i]! / total)])) as Record<
      LungZone,
      number
    >;
    out.push({ label: map.label, zones });
  }
  return out;
}
