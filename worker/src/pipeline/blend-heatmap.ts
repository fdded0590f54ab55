import { bilinearTaps, cellCentres } from './bilinear-taps.js';
import type { GrayFilm, Heatmap } from './types.js';

/** The overlay's look as a 256-entry table: colour (r, g, b) and opacity in 1/256 steps per heat level. */
export interface OverlayLut {
  rgb: Uint8Array;
  alpha: Uint16Array;
}

/** Taps of every film column (or row) into a map axis of n cells; weights in float32 as the blend reads them. */
function taps(out: number, n: number): { i0: Int32Array; i1: Int32Array; a: Float32Array } {
  const t = bilinearTaps(cellCentres(out, n), n);
  return { i0: t.i0, i1: t.i1, a: Float32Array.from(t.a) };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Gray to RGB, four pixels (three 32-bit words) a step where the film's bytes are word-aligned:
 * at 3 MP this copy is most of the blend's time, and word writes halve it.
 */
function grayToRgb(gray: Uint8Array, n: number): Buffer {
  const words = new Uint32Array(Math.ceil(n / 4) * 3);
  const out = Buffer.from(words.buffer, 0, n * 3);
  let done = 0;
  if (gray.byteOffset % 4 === 0 && LITTLE_ENDIAN) {
    const quads = new Uint32Array(gray.buffer, gray.byteOffset, n >> 2);
    for (let q = 0, o = 0; q < quads.length; q++, o += 3) {
      const v = quads[q]!;
      const g0 = v & 255;
      const g1 = (v >>> 8) & 255;
      const g2 = (v >>> 16) & 255;
      const g3 = v >>> 24;
      words[o] = g0 | (g0 << 8) | (g0 << 16) | (g1 << 24);
      words[o + 1] = g1 | (g1 << 8) | (g2 << 16) | (g2 << 24);
      words[o + 2] = g2 | (g3 << 8) | (g3 << 16) | (g3 << 24);
    }
    done = quads.length * 4;
  }
  for (let i = done, o = done * 3; i < n; i++, o += 3) out[o] = out[o + 1] = out[o + 2] = gray[i]!;
  return out;
}

/**
 * The film in RGB with the heatmap blended on top: the map is upsampled bilinearly to the film
 * (what the old per-pixel renderer sampled), each value picks a colour and an opacity from the
 * table, and out = film * (1 - a) + colour * a. Bilinear upsampling is separable, so each film
 * row first mixes its two map rows (one value per map column), then each film pixel mixes two of
 * those. A pixel's value lies between its two column values, so a run of pixels whose columns
 * are both below the first drawn level is left as the film without touching it: most of a film,
 * for maps confined to the lungs.
 */
export function blendHeatmap(film: GrayFilm, heatmap: Heatmap, lut: OverlayLut): Buffer {
  const { width: W, height: H, data: gray } = film;
  const { width: hw, height: hh } = heatmap;
  const out = grayToRgb(gray, W * H);

  // Opacity is 0 up to the first drawn level; a value below this rounds to an undrawn level.
  const firstDrawn = lut.alpha.findIndex((a) => a > 0);
  if (firstDrawn < 0) return out;
  const threshold = (firstDrawn - 0.5) / 255;
  const map = Float32Array.from(heatmap.data);
  const rowDrawn = new Uint8Array(hh);
  for (let k = 0; k < map.length; k++) if (map[k]! >= threshold) rowDrawn[(k / hw) | 0] = 1;
  if (!rowDrawn.includes(1)) return out;

  const tx = taps(W, hw);
  const ty = taps(H, hh);
  // Film columns whose left tap is map column c: runStart[c] up to runStart[c + 1].
  const runStart = new Int32Array(hw + 1);
  for (let c = 0, x = 0; c <= hw; c++) {
    while (x < W && tx.i0[x]! < c) x++;
    runStart[c] = x;
  }
  const { rgb, alpha } = lut;
  const col = new Float32Array(hw);
  for (let y = 0; y < H; y++) {
    const r0 = ty.i0[y]!;
    const r1 = ty.i1[y]!;
    if (!rowDrawn[r0] && !rowDrawn[r1]) continue;
    const ay = ty.a[y]!;
    for (let c = 0, k0 = r0 * hw, k1 = r1 * hw; c < hw; c++) {
      const top = map[k0 + c]!;
      col[c] = top + (map[k1 + c]! - top) * ay;
    }
    for (let c = 0; c < hw; c++) {
      const left = col[c]!;
      const right = col[c + 1 < hw ? c + 1 : c]!;
      if (left < threshold && right < threshold) continue;
      const step = right - left;
      for (let x = runStart[c]!, i = y * W + x, end = runStart[c + 1]!; x < end; x++, i++) {
        const v = left + step * tx.a[x]!;
        const level = v <= 0 ? 0 : v >= 1 ? 255 : (v * 255 + 0.5) | 0;
        const a = alpha[level]!;
        if (a === 0) continue;
        const keep = gray[i]! * (256 - a) + 128;
        const o = i * 3;
        const l = level * 3;
        out[o] = (keep + rgb[l]! * a) >> 8;
        out[o + 1] = (keep + rgb[l + 1]! * a) >> 8;
        out[o + 2] = (keep + rgb[l + 2]! * a) >> 8;
      }
    }
  }
  return out;
}
