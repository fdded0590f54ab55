import type { TCohortTable, TFindingSummary, TTriageSummary } from '@contracts/schemas/batch-summary.js';
import { clustersOf, type TBootstrapPlan } from '../stats/bootstrap-interval.js';
import type { TOutcome } from '../state-store.js';
import { labelOfModelFinding } from './finding-names.js';
import { truthFor, type TTruth } from './read-truth.js';
import { scoreFinding, type TScoredFilm } from './score-finding.js';

/** A film the model analysed and the CSV labels. */
export interface TCohortFilm {
  truth: TTruth;
  patientId: string | null;
  groups: Record<string, string>;
  outcome: TOutcome;
}

export interface TBootstrapSettings {
  seed: number;
  resamples: number;
}

/** Labels the model reports that are not findings of their own: the triage output and its inverse. */
const NOT_A_FINDING = new Set(['abnormal', 'normal']);

/** The model's finding labels in the order it reports them (first film that has them wins). */
export function modelFindings(films: readonly { outcome: TOutcome }[]): string[] {
  const labels: string[] = [];
  for (const { outcome } of films)
    for (const f of outcome.findings)
      if (!labels.includes(f.label) && !NOT_A_FINDING.has(labelOfModelFinding(f.label))) labels.push(f.label);
  return labels;
}

export function planOf(films: readonly TCohortFilm[], settings: TBootstrapSettings): TBootstrapPlan {
  return {
    clusters: clustersOf(films.map((f) => f.patientId)),
    films: films.length,
    resamples: settings.resamples,
    seed: settings.seed,
  };
}

/** Each film's probability, call and truth for one model label; films with unknown truth are left out. */
export function scoredFor(films: readonly TCohortFilm[], label: string): { scored: TScoredFilm[]; leftOut: number } {
  const mapped = labelOfModelFinding(label);
  const scored: TScoredFilm[] = [];
  let leftOut = 0;
  films.forEach(({ truth, outcome }, film) => {
    const result = outcome.findings.find((f) => f.label === label);
    if (!result) return;
    const positive = truthFor(truth, mapped);
    if (positive === null) return void leftOut++;
    scored.push({
      film,
      score: result.probability,
      threshold: result.threshold,
      called: result.probability >= result.threshold,
      positive,
    });
  });
  return { scored, leftOut };
}

const ABNORMAL_EXPLANATION = "the model's own abnormal (any finding) output at its threshold";
const HIGHEST_EXPLANATION =
  'this model has no abnormal output: the score is the highest probability among its findings, ' +
  'and a film counts as flagged when any finding reaches its own threshold';

/** Any finding against normal: from the model's abnormal output where every film has one, else from its highest probability. */
export function triageFilms(films: readonly TCohortFilm[]): { scored: TScoredFilm[]; fromAbnormal: boolean } {
  const abnormalOf = (o: TOutcome) => o.findings.find((f) => labelOfModelFinding(f.label) === 'abnormal');
  const fromAbnormal = films.length > 0 && films.every((f) => abnormalOf(f.outcome));
  const scored = films.flatMap(({ truth, outcome }, film): TScoredFilm[] => {
    const positive = truth.kind !== 'normal';
    const abnormal = abnormalOf(outcome);
    if (fromAbnormal && abnormal) {
      const { probability, threshold } = abnormal;
      return [{ film, score: probability, threshold, called: probability >= threshold, positive }];
    }
    const findings = outcome.findings.filter((f) => !NOT_A_FINDING.has(labelOfModelFinding(f.label)));
    if (!findings.length) return [];
    const score = Math.max(...findings.map((f) => f.probability));
    return [{ film, score, threshold: null, called: findings.some((f) => f.probability >= f.threshold), positive }];
  });
  return { scored, fromAbnormal };
}

/** Every reported finding and the triage row on one cohort (or one subgroup of it). */
export function scoreCohort(films: readonly TCohortFilm[], settings: TBootstrapSettings): TCohortTable {
  const plan = planOf(films, settings);
  const findings = modelFindings(films).map((label): TFindingSummary => {
    const { scored, leftOut } = scoredFor(films, label);
    return { finding: label, leftOut, ...scoreFinding(scored, plan) };
  });
  const { scored, fromAbnormal } = triageFilms(films);
  const triage: TTriageSummary = {
    source: fromAbnormal ? 'abnormal-output' : 'highest-probability',
    explanation: fromAbnormal ? ABNORMAL_EXPLANATION : HIGHEST_EXPLANATION,
    ...scoreFinding(scored, plan),
  };
  return { films: films.length, findings, triage };
}
