/**
 * The call a finding gets, in one place for the worker (compose.ts), the server's site thresholds
 * and every text that words a call. The percentage shown is a calibrated probability, so a finding
 * flagged at its operating point reads "Likely" (positive) only from LIKELY_FROM; one flagged at a
 * high-sensitivity operating point below it is 'possible' ("Possible — flagged for review").
 */
export const FINDING_CALLS = ['positive', 'possible', 'uncertain', 'negative'] as const;
export type TFindingCall = (typeof FINDING_CALLS)[number];

/** From this calibrated probability a flagged finding is 'positive'. */
export const LIKELY_FROM = 0.5;

/**
 * The call at `threshold`: 'uncertain' within `margin` log-odds of it, flagged above that band
 * ('positive' from LIKELY_FROM, else 'possible'), 'negative' below it (as
 * models/train/cxr_train/export/reference_whole_film.py call_of, which has no 'possible').
 */
export function callAt(p: number, threshold: number, margin: number): TFindingCall {
  const t = Math.log(threshold / (1 - threshold));
  const lo = 1 / (1 + Math.exp(-(t - margin)));
  const hi = 1 / (1 + Math.exp(-(t + margin)));
  if (p >= hi) return p >= LIKELY_FROM ? 'positive' : 'possible';
  return p < lo ? 'negative' : 'uncertain';
}

/** Flagged at the operating point ('positive' or 'possible'): a called finding. */
export const isCalled = (call: TFindingCall): boolean => call === 'positive' || call === 'possible';

/**
 * A stored call read with today's rule: results written before 'possible' existed called every
 * flagged finding 'positive', also at 12 %.
 */
export function currentCall(f: { call: TFindingCall; probability: number }): TFindingCall {
  return f.call === 'positive' && f.probability < LIKELY_FROM ? 'possible' : f.call;
}
