import sharp from 'sharp';
import type { Heatmap } from './types.js';

// Overlays are for the screen: cap the long side so a 4k film does not make a 40 MB PNG.
const MAX_OVERLAY_SIDE = 1024;
const MAX_ALPHA = 0.55;

/** 'Turbo'-like colour map (Google, Apache-2.0 polynomial approximation) for v in 0..1. */
export function colourMap(v: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, v));
  const r = 0.1357 + x * (4.5974 - x * (42.3277 - x * (130.5887 - x * (150.5666 - x * 58.1375))));
  const g = 0.0914 + x * (2.1856 + x * (4.8052 - x * (14.0195 - x * (4.2109 + x * 2.7747))));
  const b = 0.1067 + x * (12.5925 - x * (60.1097 - x * (109.0745 - x * (88.5066 - x * 26.8183))));
  const c = (u: number): number => Math.round(255 * Math.min(1, Math.max(0, u)));
  return [c(r), c(g), c(b)];
}

/** Bilinear sample of the heatmap at fractional grid position (align-corners false). */
function sample(h: Heatmap, x: number, y: number): number {
  const fx = Math.min(Math.max(x - 0.5, 0), h.width - 1);
  const fy = Math.min(Math.max(y - 0.5, 0), h.height - 1);
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(x0 + 1, h.width - 1);
  const y1 = Math.min(y0 + 1, h.height - 1);
  const ax = fx - x0;
  const ay = fy - y0;
  const at = (xx: number, yy: number): number => Number(h.data[yy * h.width + xx] ?? 0);
  return (at(x0, y0) * (1 - ax) + at(x1, y0) * ax) * (1 - ay) + (at(x0, y1) * (1 - ax) + at(x1, y1) * ax) * ay;
}

/**
 * The radiograph in gray with the heatmap blended on top (opacity grows with the value,
 * so cold regions leave the film readable). Returns a PNG.
 */
export async function renderHeatmapOverlay(image: Buffer, heatmap: Heatmap): Promise<Buffer> {
  const { data, info } = await sharp(image, { failOn: 'error' })
    .rotate()
    .resize({ width: MAX_OVERLAY_SIDE, height: MAX_OVERLAY_SIDE, fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const out = Buffer.alloc(width * height * 3);
  const sx = heatmap.width / width;
  const sy = heatmap.height / height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const g = data[i * channels]!;
      const v = sample(heatmap, (x + 0.5) * sx, (y + 0.5) * sy);
      const a = MAX_ALPHA * Math.min(1, Math.max(0, (v - 0.2) / 0.8));
      const [r, gg, b] = colourMap(v);
      out[i * 3] = Math.round(g * (1 - a) + r * a);
      out[i * 3 + 1] = Math.round(g * (1 - a) + gg * a);
      out[i * 3 + 2] = Math.round(g * (1 - a) + b * a);
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } }).png().toBuffer();
}
