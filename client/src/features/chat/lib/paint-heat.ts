import { heatGridBytes, type THeatGrid } from '@contracts/heat-grid.js';
import { colourMap, overlayAlpha } from '@contracts/heatmap-look.js';

/** The colour map and opacity at 256 heat levels, as the worker's overlay table (draw-overlay.ts). */
const LUT = (() => {
  const rgba = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) {
    rgba.set(colourMap(i / 255), i * 4);
    rgba[i * 4 + 3] = Math.round(overlayAlpha(i / 255) * 255);
  }
  return rgba;
})();

/**
 * A finding's heat grid painted as a transparent RGBA layer of outW x outH pixels (the film's
 * aspect, so the viewer lays it over the film exactly): heat sampled bilinearly between cell
 * centres, then coloured with the worker's look (contracts/heatmap-look.ts). Null when the grid is
 * corrupt. Pure, so the look is tested without a browser.
 */
export function paintHeat(grid: THeatGrid, outW: number, outH: number): Uint8ClampedArray<ArrayBuffer> | null {
  const bytes = heatGridBytes(grid);
  if (!bytes) return null;
  const { width: gw, height: gh } = grid;
  const out = new Uint8ClampedArray(outW * outH * 4);
  for (let y = 0; y < outH; y++) {
    const fy = Math.min(gh - 1, Math.max(0, ((y + 0.5) / outH) * gh - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(gh - 1, y0 + 1);
    const ay = fy - y0;
    for (let x = 0; x < outW; x++) {
      const fx = Math.min(gw - 1, Math.max(0, ((x + 0.5) / outW) * gw - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(gw - 1, x0 + 1);
      const ax = fx - x0;
      const v =
        (bytes[y0 * gw + x0]! * (1 - ax) + bytes[y0 * gw + x1]! * ax) * (1 - ay) +
        (bytes[y1 * gw + x0]! * (1 - ax) + bytes[y1 * gw + x1]! * ax) * ay;
      out.set(LUT.subarray(Math.round(v) * 4, Math.round(v) * 4 + 4), (y * outW + x) * 4);
    }
  }
  return out;
}

/** The layer's size: 256 pixels on the film's longer side, its aspect kept. */
export function heatLayerSize(film: { width: number; height: number }): { width: number; height: number } {
  const long = Math.max(film.width, film.height, 1);
  return {
    width: Math.max(1, Math.round((256 * film.width) / long)),
    height: Math.max(1, Math.round((256 * film.height) / long)),
  };
}
