/**
 * The call a finding gets, in one place for the worker (compose.ts), the server's site thresholds
 * and every text that words a call. The percentage shown is a calibrated probability, so a finding
 * flagged at its operating point reads "Likely" (positive) only from LIKELY_FROM; one flagged at a
 * high-sensitivity operating point below it is 'possible' ("Possible — flagged for review").
 */
export const FINDING_CALLS = ['positive', 'possible', 'uncertain', 'negative'] as const;
export type TFindingCall = (typeof FINDING_CALLS)[number];

/**
 * From this calibrated probability a flagged finding is 'positive', unless its manifest names a
 * higher "Likely" point (`likelyThreshold`, issue 48: chosen for precision out of fold), which
 * then decides. Never lower: a probability under 50 % is never called likely.
 */
export const LIKELY_FROM = 0.5;

/** The probability from which a flagged finding reads "Likely": its own point, never below LIKELY_FROM. */
export const likelyFrom = (likelyThreshold: number | undefined): number => Math.max(LIKELY_FROM, likelyThreshold ?? 0);

/**
 * The call at `threshold`: 'uncertain' within `margin` log-odds of it, flagged above that band
 * ('positive' from the finding's Likely point, else 'possible'), 'negative' below it (as
 * models/train/cxr_train/export/reference_whole_film.py call_of, which has no 'possible').
 */
export function callAt(p: number, threshold: number, margin: number, likelyThreshold?: number): TFindingCall {
  const t = Math.log(threshold / (1 - threshold));
  const lo = 1 / (1 + Math.exp(-(t - margin)));
  const hi = 1 / (1 + Math.exp(-(t + margin)));
  if (p >= hi) return p >= likelyFrom(likelyThreshold) ? 'positive' : 'possible';
  return p < lo ? 'negative' : 'uncertain';
}

/** Flagged at the operating point ('positive' or 'possible'): a called finding. */
export const isCalled = (call: TFindingCall): boolean => call === 'positive' || call === 'possible';

/**
 * A stored call read with today's rule: results written before 'possible' existed called every
 * flagged finding 'positive', also at 12 %; a result that carries its Likely point is read at it.
 */
export function currentCall(f: { call: TFindingCall; probability: number; likelyThreshold?: number }): TFindingCall {
  return f.call === 'positive' && f.probability < likelyFrom(f.likelyThreshold) ? 'possible' : f.call;
}
