/**
 * The evaluation's tables (targets, test populations, per-source and per-age-group calls, anatomy
 * and gate figures) as metrics.json / evaluation.json hold them. Pure and defensive: see json-guards.
 */
import { bool, interval, isObject, num, objectAt, objectEntries, text, type TJson } from './json-guards.js';

export interface TTarget {
  population: string;
  /** An AUROC, or a count for a target such as "shipped findings". */
  measured: number | null;
  target: number | null;
  met: boolean | null;
  from: string | null;
}

export interface TTestPopulation {
  population: string;
  output: string | null;
  n: number | null;
  positives: number | null;
  auc: number | null;
  ci95: [number, number] | null;
  threshold: number | null;
  sensitivity: number | null;
  specificity: number | null;
}

/** How often one source label in a group was called positive for an output, at the shipped thresholds. */
export interface TGroupLabel {
  label: string;
  n: number | null;
  /** Output key (e.g. 'covid19', from 'calledCovid19') -> count of films called positive. */
  called: Record<string, number | null>;
}

export interface TGroup {
  /** 'source', 'age group', or whatever the key before '=' says. */
  kind: string;
  name: string;
  n: number | null;
  labels: TGroupLabel[];
  /** Per-output ROC AUC inside the group (e.g. 'abnormal' from 'abnormalAuc'); null where not computable. */
  aucs: { output: string; auc: number | null }[];
}

export interface TAnatomyFigures {
  lungDice: number | null;
  heartDice: number | null;
  ctrMae: number | null;
  ctrImages: number | null;
}

export interface TGateFigures {
  rejectThreshold: number | null;
  radiographs: {
    source: string;
    n: number | null;
    netRefused: number | null;
    checksRefused: number | null;
    invertedFlagged: number | null;
  }[];
  negatives: { kind: string; n: number | null; refused: number | null }[];
  /** The negatives' 'all' row, kept apart for the headline. */
  allNegatives: { n: number | null; refused: number | null } | null;
}

export interface TEvaluationTables {
  targets: TTarget[];
  populations: TTestPopulation[];
  groups: TGroup[];
  anatomy: TAnatomyFigures;
  gate: TGateFigures;
}

export function parseTargets(raw: unknown): TTarget[] {
  return (Array.isArray(raw) ? raw : []).filter(isObject).flatMap((t) => {
    const population = text(t.population);
    return population
      ? [{ population, measured: num(t.auc), target: num(t.target), met: bool(t.met), from: text(t.from) }]
      : [];
  });
}

export function parseTestPopulations(raw: TJson | null): TTestPopulation[] {
  return objectEntries(raw).map(([population, p]) => ({
    population,
    output: text(p.output),
    n: num(p.n),
    positives: num(p.positives),
    auc: num(p.auc),
    ci95: interval(p.aucCi95),
    threshold: num(p.threshold),
    sensitivity: num(p.sensitivity),
    specificity: num(p.specificity),
  }));
}

/** 'calledCovid19' -> 'covid19'; the page matches it to a finding's label to name it. */
const outputOf = (key: string, affix: RegExp): string | null => {
  const m = affix.exec(key);
  return m?.[1] ? m[1].charAt(0).toLowerCase() + m[1].slice(1) : null;
};

function groupLabels(raw: TJson | null): TGroupLabel[] {
  return objectEntries(raw).map(([label, l]) => {
    const called: Record<string, number | null> = {};
    for (const [key, v] of Object.entries(l)) {
      const output = outputOf(key, /^called(.+)$/);
      if (output) called[output] = num(v);
    }
    return { label, n: num(l.n), called };
  });
}

export function parseGroups(raw: TJson | null): TGroup[] {
  return objectEntries(raw).map(([key, g]) => {
    const at = key.indexOf('=');
    const kind = at > 0 ? key.slice(0, at).replace(/_/g, ' ') : 'group';
    const aucs = Object.entries(g).flatMap(([k, v]) => {
      const output = outputOf(k, /^(.+)Auc$/);
      return output ? [{ output, auc: num(v) }] : [];
    });
    return {
      kind,
      name: at > 0 ? key.slice(at + 1) : key,
      n: num(g.n),
      labels: groupLabels(objectAt(g, 'labels')),
      aucs,
    };
  });
}

export function parseAnatomy(raw: TJson | null): TAnatomyFigures {
  return {
    lungDice: num(raw?.lungDice),
    heartDice: num(raw?.heartDice),
    ctrMae: num(raw?.ctrMae),
    ctrImages: num(raw?.ctrImages),
  };
}

export function parseGate(raw: TJson | null): TGateFigures {
  const radiographs = objectEntries(objectAt(raw, 'radiographs')).map(([source, r]) => ({
    source,
    n: num(r.n),
    netRefused: num(r.netRefused),
    checksRefused: num(r.deterministicRefused),
    invertedFlagged: num(objectAt(r, 'invertedCopies')?.flaggedInverted),
  }));
  const negatives = objectEntries(objectAt(raw, 'negatives')).map(([kind, r]) => ({
    kind,
    n: num(r.n),
    refused: num(r.refused),
  }));
  const all = negatives.find((r) => r.kind === 'all');
  return {
    rejectThreshold: num(raw?.rejectThreshold),
    radiographs,
    negatives: negatives.filter((r) => r.kind !== 'all'),
    allNegatives: all ? { n: all.n, refused: all.refused } : null,
  };
}
