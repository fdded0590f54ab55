/**
 * Population stability index and the histograms it compares; pure and unit-tested.
 * PSI = Σ (a_i − e_i) · ln(a_i / e_i) over bins, with a_i and e_i the actual and expected
 * (reference) fractions. A bin empty on either side would make it infinite, so fractions are
 * floored at EPSILON (the usual practice); 0.1–0.25 is commonly read as a moderate shift and
 * above 0.25 as a major one.
 */
export const PSI_EPSILON = 1e-4;
export const PSI_ALERT = 0.25;
/**
 * Fewer scores than this in a week give no PSI: over ten bins a handful of films leaves most
 * bins empty, and the floored fractions then read as a major shift (one film gives a PSI near
 * 10), so a quiet week would raise the drift banner on noise alone.
 */
export const PSI_MIN_SCORES = 20;

/** Counts of scores in equal-width bins over [0, 1]; a score of exactly 1 goes in the last bin. */
export function histogram(scores: readonly number[], bins: number): number[] {
  const counts = new Array<number>(bins).fill(0);
  for (const s of scores) {
    if (!Number.isFinite(s)) continue;
    const i = Math.min(bins - 1, Math.max(0, Math.floor(s * bins)));
    counts[i]! += 1;
  }
  return counts;
}

/** PSI of `actual` counts against `expected` counts (same bins); null when either side is empty. */
export function psi(expected: readonly number[], actual: readonly number[]): number | null {
  if (expected.length !== actual.length) throw new Error('psi: bin counts differ');
  const e = expected.reduce((a, b) => a + b, 0);
  const a = actual.reduce((x, y) => x + y, 0);
  if (e === 0 || a === 0) return null;
  let sum = 0;
  for (let i = 0; i < expected.length; i++) {
    const ei = Math.max(PSI_EPSILON, expected[i]! / e);
    const ai = Math.max(PSI_EPSILON, actual[i]! / a);
    sum += (ai - ei) * Math.log(ai / ei);
  }
  return sum;
}
