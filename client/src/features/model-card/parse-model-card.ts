/**
 * The model card page's data, read from the shipped model's own files (models/cxr/metrics.json,
 * manifest.json, evaluation.json, card.json). Pure, so it can be tested without a build;
 * model-card-data.ts feeds it the files. Every field may be missing in another model version:
 * it then comes back null or empty and the page says "not reported".
 */
import { parseModelScope, type TModelScope } from '../docs/model-scope.js';
import { parseCardText, type TCardText } from '@contracts/model/card.js';
import {
  parseAnatomy,
  parseGate,
  parseGroups,
  parseTargets,
  parseTestPopulations,
  type TEvaluationTables,
} from './parse-evaluation-tables.js';
import { bool, interval, isObject, num, objectAt, objectEntries, text, type TJson } from './json-guards.js';

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
}

export interface TModelFiles {
  metrics: unknown;
  manifest: unknown;
  evaluation: unknown;
  /** card.json: the card's prose sections as data (contracts/model/card.ts). */
  card: unknown;
}

/** Display names and thresholds the manifest gives, for candidates the metrics leave unnamed. */
function manifestEntries(manifest: unknown): Map<string, TJson> {
  const out = new Map<string, TJson>();
  if (!isObject(manifest)) return out;
  for (const list of [manifest.findings, manifest.notAssessed]) {
    for (const f of Array.isArray(list) ? list : []) {
      const label = isObject(f) ? text(f.label) : null;
      if (label && isObject(f)) out.set(label, f);
    }
  }
  return out;
}

function parseCandidates(
  metrics: unknown,
  evaluation: unknown,
  manifest: unknown,
  scope: TModelScope | null,
): TCandidate[] {
  // Model 2+ writes one entry per candidate in metrics.json; evaluation.json holds the same decisions.
  const decided = objectAt(metrics, 'findings') ?? objectAt(evaluation, 'decisions');
  const named = manifestEntries(manifest);
  const assessed = new Set(scope?.assessed.map((f) => f.label));
  const rejected = new Set(scope?.notAssessed.map((f) => f.label));
  const shippedFromScope = (label: string) => (assessed.has(label) ? true : rejected.has(label) ? false : null);
  const out: TCandidate[] = objectEntries(decided).map(([label, f]) => ({
    label,
    display: text(f.display) ?? text(named.get(label)?.display) ?? label,
    shipped: bool(f.shipped) ?? shippedFromScope(label),
    auc: num(f.auc),
    ci95: interval(f.aucCi95),
    population: text(f.population),
    figureFrom: text(f.figureFrom),
    n: num(f.n),
    positives: num(f.positives),
    threshold: num(f.threshold) ?? num(named.get(label)?.threshold),
  }));
  // A model whose metrics have no per-candidate entries (model 1) still lists what its manifest reports.
  for (const [label, f] of named) {
    if (out.some((c) => c.label === label)) continue;
    const blank = { auc: null, ci95: null, population: text(f.population), figureFrom: null, n: null, positives: null };
    out.push({
      label,
      display: text(f.display) ?? label,
      shipped: shippedFromScope(label),
      threshold: num(f.threshold),
      ...blank,
    });
  }
  return [...out.filter((c) => c.shipped === true), ...out.filter((c) => c.shipped !== true)];
}

export function parseModelCard(files: TModelFiles): TModelCard {
  const { metrics, manifest, evaluation } = files;
  const m = isObject(metrics) ? metrics : {};
  const mf = isObject(manifest) ? manifest : {};
  const ev = isObject(evaluation) ? evaluation : {};
  const scope = parseModelScope(manifest);
  return {
    modelName: text(mf.modelName) ?? text(m.modelName),
    modelVersion: text(mf.modelVersion) ?? text(m.modelVersion),
    sha256: text(mf.sha256) ?? text(m.modelSha256),
    anatomySha256: text(objectAt(mf, 'anatomy')?.sha256) ?? text(m.anatomySha256),
    trainingData: text(mf.trainingData) ?? text(m.trainingData),
    evaluatedAt: text(m.evaluatedAt) ?? text(ev.evaluatedAt),
    testImages: num(m.testImages) ?? num(ev.testImages),
    shipRule: text(m.shipRule) ?? text(ev.shipRule),
    scope,
    candidates: parseCandidates(metrics, evaluation, manifest, scope),
    targets: parseTargets(m.targets),
    populations: parseTestPopulations(objectAt(m, 'test') ?? objectAt(ev, 'test')),
    groups: parseGroups(objectAt(m, 'groups') ?? objectAt(ev, 'byGroup')),
    anatomy: parseAnatomy(objectAt(m, 'anatomy')),
    gate: parseGate(objectAt(m, 'gate')),
    ...parseCardText(files.card),
  };
}
