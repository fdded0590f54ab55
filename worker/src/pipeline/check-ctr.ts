import type { Mask } from './anatomy.js';
import type { CtrChecks, CtrUnreliable, CtrUnreliableCode } from './types.js';

// The types live in types.ts (the result contract) so that it imports nothing back from here.
export type { CtrChecks, CtrUnreliable, CtrUnreliableCode };

/*
 * Is a measured cardiothoracic ratio plausible? On opacified films (mostly AP portable, with
 * lines) the heart mask takes the whole mediastinum from the thoracic inlet down and spreads
 * into opacified lung, even below the diaphragm, while the lung masks retract from the
 * opacities: the CTR then reads 0.8-0.9 for a normal heart (shared/notes/ctr-on-opacified-films.md).
 * These checks look only at the two masks and say why the ratio cannot be trusted, as a code
 * (the server words it: anatomy-text.ts). Mirrors models/train/cxr_train/anatomy/ctr_checks.py
 * line for line (tests/pipeline/ctr-checks.test.ts holds the two together on ctr-checks.json).
 */

/**
 * Defaults picked with model 2's anatomy net on 163 validation/test films (NIH normals and
 * cardiomegaly, Wingspan, JSRT, QU-Ex): they flag the four opacified films of the note and few
 * others. The lead tunes them on validation data and ships them in the manifest.
 */
export const DEFAULT_CTR_CHECKS: CtrChecks = {
  minHeartTop: 0,
  maxHeartBelowBases: 0.1,
  minLungArea: 0.1,
  minLungSymmetry: 0.5,
  minLungFill: 0.3,
  maxHeartToLung: 0.8,
  maxCtr: 0.78,
};

/** The figures the checks compare (also what the parity test compares). */
export interface CtrMeasures {
  heartTop: number;
  heartBelowBases: number;
  lungArea: number;
  lungSymmetry: number;
  lungFill: number;
  heartToLung: number;
}

interface Extent {
  n: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Pixel count and inclusive bounds of a mask (n = 0: empty). */
function extent(m: Mask): Extent {
  const e = { n: 0, x0: m.width, x1: -1, y0: m.height, y1: -1 };
  for (let y = 0; y < m.height; y++) {
    for (let x = 0; x < m.width; x++) {
      if (!m.data[y * m.width + x]) continue;
      e.n++;
      if (x < e.x0) e.x0 = x;
      if (x > e.x1) e.x1 = x;
      if (y < e.y0) e.y0 = y;
      if (y > e.y1) e.y1 = y;
    }
  }
  return e;
}

/** The figures of a lung and a heart mask; null when either is empty. */
export function ctrMeasures(lung: Mask, heart: Mask): CtrMeasures | null {
  const l = extent(lung);
  const h = extent(heart);
  if (l.n === 0 || h.n === 0) return null;
  const lungHeight = l.y1 - l.y0 + 1;
  // Left of the middle of the lung fields' width: pixel centre x + 0.5 < (x0 + x1 + 1) / 2.
  let left = 0;
  for (let y = l.y0; y <= l.y1; y++) {
    for (let x = l.x0; x <= l.x1; x++) if (lung.data[y * lung.width + x] && 2 * x < l.x0 + l.x1) left++;
  }
  const right = l.n - left;
  return {
    heartTop: (h.y0 - l.y0) / lungHeight,
    heartBelowBases: (h.y1 - l.y1) / lungHeight,
    lungArea: l.n / (lung.width * lung.height),
    lungSymmetry: Math.min(left, right) / Math.max(left, right),
    lungFill: l.n / ((l.x1 - l.x0 + 1) * lungHeight),
    heartToLung: h.n / l.n,
  };
}

/**
 * Null when the masks look like a measurable film, else the first failed check (in a fixed
 * order: heart extent, lung size and shape, then the ratio). `ctr` is the measured ratio.
 */
export function checkCtr(lung: Mask, heart: Mask, ctr: number, checks: CtrChecks): CtrUnreliable | null {
  const m = ctrMeasures(lung, heart);
  const fail = (code: CtrUnreliableCode): CtrUnreliable => ({ code });
  if (!m) return fail('lungs_small');
  if (m.heartTop < checks.minHeartTop) return fail('heart_at_inlet');
  if (m.heartBelowBases > checks.maxHeartBelowBases) return fail('heart_below_bases');
  if (m.lungArea < checks.minLungArea) return fail('lungs_small');
  if (m.lungSymmetry < checks.minLungSymmetry) return fail('lungs_asymmetric');
  if (m.lungFill < checks.minLungFill) return fail('lungs_retracted');
  if (m.heartToLung > checks.maxHeartToLung) return fail('heart_oversized');
  if (ctr > checks.maxCtr) return fail('heart_too_wide');
  return null;
}
