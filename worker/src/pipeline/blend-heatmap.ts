import type { Heatmap } from './types.js';

/** A film as 8-bit luma, one byte a pixel, at the stored image's size. */
export interface GrayFilm {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The overlay's look as a 256-entry table: colour (r, g, b) and opacity in 1/256 steps per heat level. */
export interface OverlayLut {
  rgb: Uint8Array;
  alpha: Uint16Array;
}

/** Bilinear taps of every output column (or row) into a grid of n cells (align-corners false). */
function taps(out: number, n: number): { i0: Int32Array; i1: Int32Array; a: Float32Array } {
  const t = { i0: new Int32Array(out), i1: new Int32Array(out), a: new Float32Array(out) };
  const scale = n / out;
  for (let x = 0; x < out; x++) {
    const f = Math.min(Math.max((x + 0.5) * scale - 0.5, 0), n - 1);
    const i0 = Math.floor(f);
    t.i0[x] = i0;
    t.i1[x] = Math.min(i0 + 1, n - 1);
    t.a[x] = f - i0;
  }
  return t;
}

/** First and one-past-last output index whose taps touch cells lo..hi. */
function span(t: { i0: Int32Array; i1: Int32Array }, lo: number, hi: number): [number, number] {
  let a = 0;
  while (a < t.i0.length && t.i1[a]! < lo) a++;
  let b = t.i0.length;
  while (b > a && t.i0[b - 1]! > hi) b--;
  return [a, b];
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
 * table, and out = film * (1 - a) + colour * a. Only the rectangle whose taps reach a cell that
 * the table draws (opacity > 0) is blended; the rest of the film is copied, which is most of it
 * for maps confined to the lungs.
 */
export function blendHeatmap(film: GrayFilm, heatmap: Heatmap, lut: OverlayLut): Buffer {
  const { width: W, height: H, data: gray } = film;
  const hw = heatmap.width;
  const out = grayToRgb(gray, W * H);

  // Cells the table draws: opacity is 0 up to the first drawn level.
  const firstDrawn = lut.alpha.findIndex((a) => a > 0);
  if (firstDrawn < 0) return out;
  const threshold = (firstDrawn - 0.5) / 255;
  let cx0 = hw,
    cx1 = -1,
    cy0 = heatmap.height,
    cy1 = -1;
  for (let k = 0; k < heatmap.data.length; k++) {
    if (Number(heatmap.data[k]) < threshold) continue;
    const x = k % hw;
    const y = (k - x) / hw;
    cx0 = Math.min(cx0, x);
    cx1 = Math.max(cx1, x);
    cy0 = Math.min(cy0, y);
    cy1 = Math.max(cy1, y);
  }
  if (cx1 < 0) return out;

  const tx = taps(W, hw);
  const ty = taps(H, heatmap.height);
  const [x0, x1] = span(tx, cx0, cx1);
  const [y0, y1] = span(ty, cy0, cy1);
  const rw = x1 - x0;
  // Rows of the map interpolated horizontally once; each film row then mixes two of them.
  const rows = new Float32Array(heatmap.height * rw);
  for (let r = 0; r < heatmap.height; r++) {
    const src = r * hw;
    for (let x = x0; x < x1; x++) {
      const a = Number(heatmap.data[src + tx.i0[x]!]);
      rows[r * rw + x - x0] = a + (Number(heatmap.data[src + tx.i1[x]!]) - a) * tx.a[x]!;
    }
  }
  const { rgb, alpha } = lut;
  for (let y = y0; y < y1; y++) {
    const r0 = ty.i0[y]! * rw;
    const r1 = ty.i1[y]! * rw;
    const ay = ty.a[y]!;
    for (let x = x0, i = y * W + x0; x < x1; x++, i++) {
      const top = rows[r0 + x - x0]!;
      const v = top + (rows[r1 + x - x0]! - top) * ay;
      const level = v <= 0 ? 0 : v >= 1 ? 255 : (v * 255 + 0.5) | 0;
      const a = alpha[level]!;
      if (a === 0) continue;
      const keep = gray[i]! * (256 - a) + 128;
      const o = i * 3;
      const c = level * 3;
      out[o] = (keep + rgb[c]! * a) >> 8;
      out[o + 1] = (keep + rgb[c + 1]! * a) >> 8;
      out[o + 2] = (keep + rgb[c + 2]! * a) >> 8;
    }
  }
  return out;
}
