/**
 * The statistics behind site calibration, pure and unit-tested. A case is positive at threshold
 * t when its score is >= t, as the worker decides a call (worker/src/pipeline/compose.ts).
 */
export interface TCase {
  score: number;
  /** What the site's reader (or label) says: the finding is present. */
  present: boolean;
}

const Z95 = 1.959963984540054;

/** Wilson score interval for k successes out of n (95 %); [0, 1] when n is 0. */
export function wilson(k: number, n: number, z = Z95): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export interface TOperatingPoint {
  threshold: number;
  tp: number;
  fn: number;
  tn: number;
  fp: number;
  sensitivity: number;
  specificity: number;
}

export function operatingPoint(cases: readonly TCase[], threshold: number): TOperatingPoint {
  let tp = 0,
    fn = 0,
    tn = 0,
    fp = 0;
  for (const c of cases) {
    const called = c.score >= threshold;
    if (c.present && called) tp++;
    else if (c.present) fn++;
    else if (called) fp++;
    else tn++;
  }
  return {
    threshold,
    tp,
    fn,
    tn,
    fp,
    sensitivity: tp + fn ? tp / (tp + fn) : 0,
    specificity: tn + fp ? tn / (tn + fp) : 0,
  };
}

/**
 * Candidate thresholds: each distinct score (a threshold between two scores behaves like the
 * higher one). Ascending, so ties below prefer the lower threshold, i.e. the more sensitive one.
 */
function candidates(cases: readonly TCase[]): number[] {
  return [...new Set(cases.map((c) => c.score))].sort((a, b) => a - b);
}

/** The threshold maximising Youden's J = sensitivity + specificity - 1. */
export function youdenThreshold(cases: readonly TCase[]): TOperatingPoint {
  let best: TOperatingPoint | null = null;
  for (const t of candidates(cases)) {
    const p = operatingPoint(cases, t);
    if (!best || p.sensitivity + p.specificity > best.sensitivity + best.specificity) best = p;
  }
  if (!best) throw new Error('youdenThreshold needs at least one case');
  return best;
}

/** The highest threshold (best specificity) whose sensitivity is still at least `target`. */
export function thresholdForSensitivity(cases: readonly TCase[], target: number): TOperatingPoint {
  let best: TOperatingPoint | null = null;
  for (const t of candidates(cases)) {
    const p = operatingPoint(cases, t);
    if (p.sensitivity >= target) best = p;
  }
  // The lowest score calls every case positive, so sensitivity is 1 there: best is never null.
  if (!best) throw new Error('thresholdForSensitivity needs at least one case');
  return best;
}
