import type { DecodedImage } from './decode-image.js';
import type { ManifestInput } from './types.js';

/*
 * Exactly what models/train/cxr_train/common.py does (the parity test holds the two together):
 * 8-bit luma with integer BT.601 weights, then a box-filter stretch to the network size
 * in float64, then (x/255 - mean) / std as float32.
 */

/**
 * Luma: (299 R + 587 G + 114 B + 500) / 1000, integer division; alpha is ignored. A gray image is
 * returned as it is (not copied). Most films arrive as RGB with three equal channels, whose luma
 * is that value ((1000 v + 500) / 1000 rounds down to v), so those pixels skip the arithmetic.
 */
export function toGray(img: DecodedImage): Uint8Array {
  const { width, height, channels, data } = img;
  const n = width * height;
  if (channels === 1) return data.subarray(0, n);
  const out = new Uint8Array(n);
  if (channels <= 2) {
    for (let i = 0; i < n; i++) out[i] = data[i * channels]!;
    return out;
  }
  for (let i = 0, o = 0; i < n; i++, o += channels) {
    const r = data[o]!;
    const g = data[o + 1]!;
    const b = data[o + 2]!;
    // | 0 is Math.floor here: the sum is non-negative and far below 2^31.
    out[i] = r === g && g === b ? r : ((r * 299 + g * 587 + b * 114 + 500) / 1000) | 0;
  }
  return out;
}

interface Span {
  start: number;
  weights: Float64Array;
}

/** Output pixel i averages input span [i*n/size, (i+1)*n/size), weighted by overlap. */
export function areaWeights(nIn: number, nOut: number): Span[] {
  const scale = nIn / nOut;
  const spans: Span[] = [];
  for (let i = 0; i < nOut; i++) {
    const lo = i * scale;
    const hi = (i + 1) * scale;
    const j0 = Math.floor(lo);
    const j1 = Math.min(Math.ceil(hi), nIn);
    const w = new Float64Array(Math.max(j1 - j0, 0));
    let sum = 0;
    for (let j = j0; j < j1; j++) {
      const ov = Math.min(hi, j + 1) - Math.max(lo, j);
      if (ov > 0) {
        w[j - j0] = ov;
        sum += ov;
      }
    }
    for (let k = 0; k < w.length; k++) w[k]! /= sum;
    spans.push({ start: j0, weights: w });
  }
  return spans;
}

/** Box-filter stretch of a gray image to outW x outH; float64 values 0..255. */
export function resizeArea(gray: Uint8Array, width: number, height: number, outW: number, outH: number): Float64Array {
  const wy = areaWeights(height, outH);
  const wx = areaWeights(width, outW);
  const rows = new Float64Array(outH * width); // rows first, like (wy @ img) @ wx.T
  // Row views keep the inner loops free of index arithmetic (the same sums in the same order).
  for (let i = 0; i < outH; i++) {
    const { start, weights } = wy[i]!;
    const acc = rows.subarray(i * width, (i + 1) * width);
    for (let k = 0; k < weights.length; k++) {
      const w = weights[k]!;
      const src = gray.subarray((start + k) * width, (start + k + 1) * width);
      for (let x = 0; x < width; x++) acc[x]! += w * src[x]!;
    }
  }
  const out = new Float64Array(outH * outW);
  for (let i = 0; i < outH; i++) {
    const row = rows.subarray(i * width, (i + 1) * width);
    for (let j = 0; j < outW; j++) {
      const { start, weights } = wx[j]!;
      let s = 0;
      for (let k = 0; k < weights.length; k++) s += weights[k]! * row[start + k]!;
      out[i * outW + j] = s;
    }
  }
  return out;
}

/** One plane per input channel: the gray plane, or R, G, B for an 'rgb' model (gray images replicated). */
export function inputPlanes(img: DecodedImage, gray255: Float64Array, input: ManifestInput): Float64Array[] {
  if (input.channels === 1) return [gray255];
  if (input.colour !== 'rgb' || img.channels < 3) return [gray255, gray255, gray255];
  return [0, 1, 2].map((c) => {
    const plane = new Uint8Array(img.width * img.height);
    for (let i = 0; i < plane.length; i++) plane[i] = img.data[i * img.channels + c]!;
    return resizeArea(plane, img.width, img.height, input.width, input.height);
  });
}

/** The network's input tensor data (NCHW, batch 1) from resized 0..255 planes. */
export function normalise(planes: Float64Array[], input: ManifestInput): Float32Array {
  const n = input.width * input.height;
  const out = new Float32Array(n * planes.length);
  planes.forEach((x255, c) => {
    const mean = input.mean[c] ?? input.mean[0] ?? 0;
    const std = input.std[c] ?? input.std[0] ?? 1;
    for (let i = 0; i < n; i++) out[c * n + i] = (x255[i]! * input.scale - mean) / std;
  });
  return out;
}

/** Decoded image -> resized gray 0..255 at the manifest's input size. */
export function preprocess(img: DecodedImage, input: ManifestInput): Float64Array {
  return resizeArea(toGray(img), img.width, img.height, input.width, input.height);
}

/** 255 - v for every pixel: an inverted film the right way round. */
export function invertGray(gray: Uint8Array): Uint8Array {
  const out = new Uint8Array(gray.length);
  for (let i = 0; i < gray.length; i++) out[i] = 255 - gray[i]!;
  return out;
}

/** The same for resized 0..255 planes. */
export function invertPlanes(planes: Float64Array[]): Float64Array[] {
  return planes.map((p) => p.map((v) => 255 - v));
}
