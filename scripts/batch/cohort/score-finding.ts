import { bootstrapInterval, type TBootstrapPlan } from '../stats/bootstrap-interval.js';
import { aurocScorer } from '../stats/weighted-auroc.js';
import { wilsonInterval } from '../stats/wilson-interval.js';

/** One film scored for one finding: the model's probability, whether it was called at the operating point, the truth. */
export interface TScoredFilm {
  film: number;
  score: number;
  /** The film's own operating threshold; null where the call is not one threshold (triage by highest probability). */
  threshold: number | null;
  /**
   * Called positive: the probability reached the film's threshold, whatever word the result's
   * call uses ("possible" included), so the operating point is the threshold's.
   */
  called: boolean;
  positive: boolean;
}

export interface TConfusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

type TInterval = [number, number] | null;

export interface TFindingMetrics {
  positives: number;
  negatives: number;
  auroc: number | null;
  aurocCi: TInterval;
  /** The operating threshold (the median of the films' own: a site threshold can change it per film). */
  threshold: number | null;
  thresholdVaries: boolean;
  sensitivity: number | null;
  sensitivityCi: TInterval;
  specificity: number | null;
  specificityCi: TInterval;
  ppv: number | null;
  ppvCi: TInterval;
  npv: number | null;
  npvCi: TInterval;
  prevalence: number | null;
  confusion: TConfusion;
  /** Why a figure is n/a, when one is. */
  note: string | null;
}

const ratio = (a: number, b: number) => (b ? a / b : null);

export function confusionOf(films: readonly TScoredFilm[]): TConfusion {
  const c: TConfusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const f of films) {
    if (f.called && f.positive) c.tp++;
    else if (f.called) c.fp++;
    else if (f.positive) c.fn++;
    else c.tn++;
  }
  return c;
}

function noteOf(positives: number, negatives: number): string | null {
  if (!positives && !negatives) return 'no scored films';
  if (!positives) return 'no positive films in this cohort: AUROC and sensitivity are undefined';
  if (!negatives) return 'no negative films in this cohort: AUROC and specificity are undefined';
  return null;
}

/** AUROC with its bootstrap interval, and the operating point's figures with Wilson intervals. */
export function scoreFinding(films: readonly TScoredFilm[], plan: TBootstrapPlan): TFindingMetrics {
  const positives = films.filter((f) => f.positive).length;
  const negatives = films.length - positives;
  const scorer = aurocScorer(films);
  const auroc = scorer();
  const c = confusionOf(films);
  const thresholds = films.flatMap((f) => (f.threshold === null ? [] : [f.threshold])).sort((a, b) => a - b);
  return {
    positives,
    negatives,
    auroc,
    aurocCi: auroc === null ? null : bootstrapInterval(plan, scorer).ci,
    threshold: thresholds.length ? thresholds[Math.floor(thresholds.length / 2)]! : null,
    thresholdVaries: thresholds.length > 0 && thresholds[0] !== thresholds[thresholds.length - 1],
    sensitivity: ratio(c.tp, c.tp + c.fn),
    sensitivityCi: wilsonInterval(c.tp, c.tp + c.fn),
    specificity: ratio(c.tn, c.tn + c.fp),
    specificityCi: wilsonInterval(c.tn, c.tn + c.fp),
    ppv: ratio(c.tp, c.tp + c.fp),
    ppvCi: wilsonInterval(c.tp, c.tp + c.fp),
    npv: ratio(c.tn, c.tn + c.fn),
    npvCi: wilsonInterval(c.tn, c.tn + c.fn),
    prevalence: ratio(positives, films.length),
    confusion: c,
    note: noteOf(positives, negatives),
  };
}
