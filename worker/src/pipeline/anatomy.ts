import { resizeArea } from './preprocess.js';

/*
 * What the worker derives from the anatomy masks: the lung-field crop box and the
 * cardiothoracic ratio. Mirrors models/train/cxr_train/anatomy/ops.py line for line (the parity test
 * holds the two together); the manifest carries the constants.
 */

/** A binary mask on the anatomy grid (row-major, 1 = inside). */
export interface Mask {
  width: number;
  height: number;
  data: Uint8Array;
}

/** [x0, y0, x1, y1] as fractions of the image. */
export type Box = [number, number, number, number];

/** Integer pixel box on a film: left, top, width, height. */
export interface PixelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Channel `channel` of a (1, C, H, W) logit tensor thresholded at 0 (probability 0.5). */
export function maskFromLogits(data: Float32Array, dims: readonly number[], channel: number): Mask {
  const height = dims[2]!;
  const width = dims[3]!;
  const n = width * height;
  const out = new Uint8Array(n);
  const src = data.subarray(channel * n, (channel + 1) * n);
  for (let i = 0; i < n; i++) out[i] = src[i]! > 0 ? 1 : 0;
  return { width, height, data: out };
}

export function countOn(mask: Mask): number {
  let n = 0;
  for (const v of mask.data) n += v;
  return n;
}

/** Lung-field box with `margin` (of its width / height) on every side, clipped to 0..1; null below `minFraction` lung pixels. */
export function lungBox(lung: Mask, margin: number, minFraction: number): Box | null {
  const { width, height, data } = lung;
  let n = 0;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!data[y * width + x]) continue;
      n++;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  if (n < minFraction * width * height) return null;
  x1 += 1;
  y1 += 1;
  const mx = margin * (x1 - x0);
  const my = margin * (y1 - y0);
  return [
    Math.max(0, (x0 - mx) / width),
    Math.max(0, (y0 - my) / height),
    Math.min(1, (x1 + mx) / width),
    Math.min(1, (y1 + my) / height),
  ];
}

/** 0..1 box -> integer pixel box on a width x height film (at least 1 x 1 pixel). */
export function pixelBox(box: Box, width: number, height: number): PixelBox {
  const left = Math.min(width - 1, Math.floor(box[0] * width));
  const top = Math.min(height - 1, Math.floor(box[1] * height));
  const right = Math.max(left + 1, Math.min(width, Math.ceil(box[2] * width)));
  const bottom = Math.max(top + 1, Math.min(height, Math.ceil(box[3] * height)));
  return { left, top, width: right - left, height: bottom - top };
}

/** The film's pixels inside the box (a copy). */
export function cropGray(gray: Uint8Array, width: number, pb: PixelBox): Uint8Array {
  const out = new Uint8Array(pb.width * pb.height);
  for (let y = 0; y < pb.height; y++) {
    const src = (pb.top + y) * width + pb.left;
    out.set(gray.subarray(src, src + pb.width), y * pb.width);
  }
  return out;
}

/** Crop the native-resolution film to the box (null = whole film) and stretch it to size x size (box filter). */
export function cropResize(
  gray: Uint8Array,
  width: number,
  height: number,
  box: Box | null,
  size: number,
): Float64Array {
  if (!box) return resizeArea(gray, width, height, size, size);
  const pb = pixelBox(box, width, height);
  return resizeArea(cropGray(gray, width, pb), pb.width, pb.height, size, size);
}

/** A line on the film [x0, y0, x1, y1], fractions of the width and height. */
export type FractionLine = [number, number, number, number];

/**
 * The two widths cardiothoracicRatio measures, as lines a viewer can draw (the SR's SCOORDs):
 * the heart's from its leftmost to its rightmost pixel edge, at the middle row of the heart's
 * extent (the borders may lie on different rows, so the row is where a reader expects it), and
 * the thorax's along its widest row. Null when either mask is empty.
 */
export function ctrWidthLines(lung: Mask, heart: Mask): { heart: FractionLine; thorax: FractionLine } | null {
  let hx0 = heart.width;
  let hx1 = -1;
  let hy0 = heart.height;
  let hy1 = -1;
  for (let y = 0; y < heart.height; y++) {
    for (let x = 0; x < heart.width; x++) {
      if (!heart.data[y * heart.width + x]) continue;
      hx0 = Math.min(hx0, x);
      hx1 = Math.max(hx1, x);
      hy0 = Math.min(hy0, y);
      hy1 = Math.max(hy1, y);
    }
  }
  let best = { width: 0, y: 0, first: 0 };
  for (let y = 0; y < lung.height; y++) {
    const row = lung.data.subarray(y * lung.width, (y + 1) * lung.width);
    const first = row.indexOf(1);
    if (first < 0) continue;
    const width = row.lastIndexOf(1) - first + 1;
    if (width > best.width) best = { width, y, first };
  }
  if (hx1 < 0 || best.width === 0) return null;
  const hy = (hy0 + hy1 + 1) / 2 / heart.height;
  const ty = (best.y + 0.5) / lung.height;
  return {
    heart: [hx0 / heart.width, hy, (hx1 + 1) / heart.width, hy],
    thorax: [best.first / lung.width, ty, (best.first + best.width) / lung.width, ty],
  };
}

/**
 * Maximal horizontal heart width / maximal inner thoracic width, or null when not measurable.
 * Heart width: leftmost to rightmost heart pixel over the whole mask (the two borders may lie
 * on different rows). Thoracic width: the widest row of the lung fields, outer edge to outer edge.
 */
export function cardiothoracicRatio(
  lung: Mask,
  heart: Mask,
  minHeartPixels: number,
  minLungFraction: number,
): number | null {
  if (countOn(heart) < minHeartPixels || countOn(lung) < minLungFraction * lung.width * lung.height) return null;
  let hx0 = heart.width;
  let hx1 = -1;
  for (let y = 0; y < heart.height; y++) {
    for (let x = 0; x < heart.width; x++) {
      if (!heart.data[y * heart.width + x]) continue;
      hx0 = Math.min(hx0, x);
      hx1 = Math.max(hx1, x);
    }
  }
  let thorax = 0;
  for (let y = 0; y < lung.height; y++) {
    const row = lung.data.subarray(y * lung.width, (y + 1) * lung.width);
    const first = row.indexOf(1);
    if (first >= 0) thorax = Math.max(thorax, row.lastIndexOf(1) - first + 1);
  }
  if (thorax === 0) return null;
  return (hx1 - hx0 + 1) / thorax;
}
