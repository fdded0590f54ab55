import type { DecodedImage } from './decode.js';
import { softmax } from './calibrate.js';
import type { GateChecks, GateReasonCode, GateVerdict, ManifestGate } from './types.js';

/*
 * The input gate: deterministic checks (mirrored by models/train/cxr_train/gate/checks.py), then the
 * model's gate head when the manifest has one. Each refusal carries a sentence for the user.
 */

export const DEFAULT_CHECKS: GateChecks = {
  minSide: 128,
  maxAspect: 2.0,
  chromaLevel: 38,
  maxColourFraction: 0.05,
  blankStd: 6,
  lowContrastStd: 20,
};

export function reasonText(code: GateReasonCode, checks: GateChecks = DEFAULT_CHECKS): string {
  switch (code) {
    case 'undecodable':
      return 'The file could not be read as an image.';
    case 'too_small':
      return `The image is too small to analyse (shortest side under ${checks.minSide} pixels).`;
    case 'aspect_ratio':
      return 'The image has an extreme aspect ratio for a chest radiograph.';
    case 'colour':
      return 'The image appears to be a colour photograph or illustration, not a chest radiograph.';
    case 'blank':
      return 'The image is almost uniform and too low in quality to analyse.';
    case 'not_cxr':
      return 'The image does not look like a frontal chest radiograph.';
  }
}

export function refuse(code: GateReasonCode, checks: GateChecks, flags: string[] = []): GateVerdict {
  return { accepted: false, reason: reasonText(code, checks), flags, code };
}

/** Fraction of clearly coloured pixels (max-min channel difference >= chromaLevel). */
export function colourFraction(img: DecodedImage, chromaLevel: number): number {
  if (img.channels < 3) return 0;
  const { data, channels } = img;
  const n = img.width * img.height;
  let coloured = 0;
  for (let i = 0, o = 0; i < n; i++, o += channels) {
    const r = data[o]!;
    const g = data[o + 1]!;
    const b = data[o + 2]!;
    // Spelled out (no Math.max/min of three): this runs over every pixel of a 3 MP RGB film.
    const hi = r > g ? (r > b ? r : b) : g > b ? g : b;
    const lo = r < g ? (r < b ? r : b) : g < b ? g : b;
    if (hi - lo >= chromaLevel) coloured++;
  }
  return coloured / n;
}

/** Checks on the decoded pixels: size, shape, colour. */
export function preChecks(img: DecodedImage, checks: GateChecks): GateReasonCode | null {
  const short = Math.min(img.width, img.height);
  if (short < checks.minSide) return 'too_small';
  if (Math.max(img.width, img.height) / short > checks.maxAspect) return 'aspect_ratio';
  if (colourFraction(img, checks.chromaLevel) > checks.maxColourFraction) return 'colour';
  return null;
}

/** Population standard deviation, two passes in float64 like numpy. */
export function stdDev(x: Float64Array): number {
  let mean = 0;
  for (const v of x) mean += v;
  mean /= x.length;
  let ss = 0;
  for (const v of x) ss += (v - mean) * (v - mean);
  return Math.sqrt(ss / x.length);
}

/** Checks on the preprocessed 0..255 image: blank refuses, low contrast only flags. */
export function postChecks(x255: Float64Array, checks: GateChecks): { code: GateReasonCode | null; flags: string[] } {
  const sd = stdDev(x255);
  if (sd < checks.blankStd) return { code: 'blank', flags: [] };
  return { code: null, flags: sd < checks.lowContrastStd ? ['low_contrast'] : [] };
}

/** Applies the model's gate head; returns the verdict and whether polarity is inverted. */
export function modelGate(gate: ManifestGate, logits: Float32Array, checks: GateChecks, flags: string[]): GateVerdict {
  const p =
    gate.activation === 'softmax' ? softmax(Array.from(logits)) : Array.from(logits, (z) => 1 / (1 + Math.exp(-z)));
  const at = (label: string | undefined): number => (label ? (p[gate.labels.indexOf(label)] ?? 0) : 0);
  if (at(gate.rejectLabel) >= gate.rejectThreshold) return refuse('not_cxr', checks, flags);
  const inverted = gate.invertedLabel !== undefined && at(gate.invertedLabel) > at(gate.acceptLabel);
  return { accepted: true, reason: null, flags: inverted ? [...flags, 'inverted'] : flags, code: null };
}
