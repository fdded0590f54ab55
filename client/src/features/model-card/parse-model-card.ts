/**
 * The model card page's data, read from the shipped model's own files (models/cxr/metrics.json,
 * manifest.json, evaluation.json, card.json) through the shared contracts (contracts/model/).
 * Pure, so it can be tested without a build; model-card-data.ts feeds it the files. Every field
 * may be missing in another model version: it then comes back null or empty and the page says
 * "not reported".
 */
import { parseCardText, type TCardText } from '@contracts/model/card.js';
import { parseModelEvaluation } from '@contracts/model/evaluation.js';
import { parseManifestSummary, type TManifestSummary } from '@contracts/model/manifest-summary.js';
import { parseModelMetrics, type TExternalFigures, type TFindingMetrics } from '@contracts/model/metrics.js';
import { scopeOf, type TModelScope } from '../docs/model-scope.js';
import {
  anatomyOf,
  gateOf,
  groupsOf,
  populationsOf,
  targetsOf,
  type TEvaluationTables,
} from './parse-evaluation-tables.js';

/** One candidate finding and the figure that decided whether it ships. */
export interface TCandidate {
  label: string;
  display: string;
  /** true: reported with a probability; false: "not assessed"; null: the files do not say. */
  shipped: boolean | null;
  auc: number | null;
  ci95: [number, number] | null;
  /** The held-out population that decided it, e.g. 'adult infection vs adult normal'. */
  population: string | null;
  /** 'test split' or the cross-validation the figure came from. */
  figureFrom: string | null;
  n: number | null;
  positives: number | null;
  threshold: number | null;
  /** Issue 48: where a flag reads "Likely" (the manifest's, chosen for precision); null: from 50 % or not shipped. */
  likelyThreshold: number | null;
}

export interface TModelCard extends TEvaluationTables, TCardText {
  modelName: string | null;
  modelVersion: string | null;
  sha256: string | null;
  anatomySha256: string | null;
  trainingData: string | null;
  evaluatedAt: string | null;
  testImages: number | null;
  /** The rule a candidate must pass to ship, as the evaluation wrote it. */
  shipRule: string | null;
  scope: TModelScope | null;
  /** Shipped findings first, then the rest, each group in file order. */
  candidates: TCandidate[];
  /** Model 4: every candidate on films from other hospitals (metrics.json `external`); null before. */
  external: TExternalFigures | null;
}

export interface TModelFiles {
  metrics: unknown;
  manifest: unknown;
  evaluation: unknown;
  /** card.json: the card's prose sections as data (contracts/model/card.ts). */
  card: unknown;
}

/** metrics.json's table when it has one, else evaluation.json's (which holds the same for model 2+). */
const firstFilled = <T>(a: Record<string, T> | undefined, b: Record<string, T>): Record<string, T> =>
  a && Object.keys(a).length > 0 ? a : b;

function candidatesOf(
  decided: Record<string, TFindingMetrics>,
  manifest: TManifestSummary,
  scope: TModelScope | null,
): TCandidate[] {
  // Display names and thresholds the manifest gives, for candidates the metrics leave unnamed.
  const named = new Map([...manifest.findings, ...manifest.notAssessed].map((f) => [f.label, f]));
  const assessed = new Set(scope?.assessed.map((f) => f.label));
  const rejected = new Set(scope?.notAssessed.map((f) => f.label));
  const shippedFromScope = (label: string) => (assessed.has(label) ? true : rejected.has(label) ? false : null);
  const out: TCandidate[] = Object.entries(decided).map(([label, f]) => ({
    label,
    display: f.display ?? named.get(label)?.display ?? label,
    shipped: f.shipped ?? shippedFromScope(label),
    auc: f.auc,
    ci95: f.aucCi95,
    population: f.population,
    figureFrom: f.figureFrom,
    n: f.n,
    positives: f.positives,
    threshold: f.threshold ?? named.get(label)?.threshold ?? null,
    likelyThreshold: named.get(label)?.likelyThreshold ?? null,
  }));
  // A model whose metrics have no per-candidate entries (model 1) still lists what its manifest reports.
  for (const [label, f] of named) {
    if (out.some((c) => c.label === label)) continue;
    const blank = { auc: null, ci95: null, figureFrom: null, n: null, positives: null };
    const { display, threshold, population, likelyThreshold } = f;
    out.push({
      label,
      display: display ?? label,
      shipped: shippedFromScope(label),
      threshold,
      likelyThreshold,
      population,
      ...blank,
    });
  }
  return [...out.filter((c) => c.shipped === true), ...out.filter((c) => c.shipped !== true)];
}

export function parseModelCard(files: TModelFiles): TModelCard {
  const mf = parseManifestSummary(files.manifest);
  const m = parseModelMetrics(files.metrics);
  const ev = parseModelEvaluation(files.evaluation);
  const scope = scopeOf(mf);
  return {
    modelName: mf.modelName ?? (m?.modelName || null),
    modelVersion: mf.modelVersion ?? (m?.modelVersion || null),
    sha256: mf.sha256 ?? m?.modelSha256 ?? null,
    anatomySha256: mf.anatomy?.sha256 ?? m?.anatomySha256 ?? null,
    trainingData: mf.trainingData ?? m?.trainingData ?? null,
    evaluatedAt: m?.evaluatedAt ?? ev.evaluatedAt,
    testImages: m?.testImages ?? ev.testImages,
    shipRule: m?.shipRule ?? ev.shipRule,
    scope,
    candidates: candidatesOf(firstFilled(m?.findings, ev.decisions), mf, scope),
    targets: targetsOf(m?.targets ?? []),
    populations: populationsOf(firstFilled(m?.test, ev.test)),
    groups: groupsOf(firstFilled(m?.groups, ev.byGroup)),
    anatomy: anatomyOf(m?.anatomy),
    gate: gateOf(m?.gate),
    external: m?.external ?? null,
    ...parseCardText(files.card),
  };
}
