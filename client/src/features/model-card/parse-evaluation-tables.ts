/**
 * The evaluation's tables (targets, test populations, per-source and per-age-group calls, anatomy
 * and gate figures) from metrics.json / evaluation.json as the shared contract reads them
 * (contracts/model/metrics.ts: a figure the files lack is null). Pure.
 */
import type {
  TGroup as TGroupFigures,
  TModelMetrics,
  TTestPopulation as TTestFigures,
} from '@contracts/model/metrics.js';

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

/** Targets without a population name nothing and are dropped. */
export function targetsOf(targets: TModelMetrics['targets']): TTarget[] {
  return targets.flatMap(({ population, auc, target, met, from }) =>
    population ? [{ population, measured: auc, target, met, from }] : [],
  );
}

export function populationsOf(test: Record<string, TTestFigures>): TTestPopulation[] {
  return Object.entries(test).map(([population, p]) => ({
    population,
    output: p.output,
    n: p.n,
    positives: p.positives,
    auc: p.auc,
    ci95: p.aucCi95,
    threshold: p.threshold,
    sensitivity: p.sensitivity,
    specificity: p.specificity,
  }));
}

/** 'calledCovid19' -> 'covid19'; the page matches it to a finding's label to name it. */
const outputOf = (key: string, affix: RegExp): string | null => {
  const m = affix.exec(key);
  return m?.[1] ? m[1].charAt(0).toLowerCase() + m[1].slice(1) : null;
};

function groupLabels(labels: TGroupFigures['labels']): TGroupLabel[] {
  return Object.entries(labels).map(([label, l]) => {
    const called: Record<string, number | null> = {};
    for (const [key, v] of Object.entries(l)) {
      const output = outputOf(key, /^called(.+)$/);
      if (output) called[output] = v;
    }
    return { label, n: l.n, called };
  });
}

export function groupsOf(groups: Record<string, TGroupFigures>): TGroup[] {
  return Object.entries(groups).map(([key, { n, labels, ...figures }]) => {
    const at = key.indexOf('=');
    const aucs = Object.entries(figures).flatMap(([k, auc]) => {
      const output = outputOf(k, /^(.+)Auc$/);
      return output ? [{ output, auc }] : [];
    });
    return {
      kind: at > 0 ? key.slice(0, at).replace(/_/g, ' ') : 'group',
      name: at > 0 ? key.slice(at + 1) : key,
      n,
      labels: groupLabels(labels),
      aucs,
    };
  });
}

export function anatomyOf(a: TModelMetrics['anatomy'] | undefined): TAnatomyFigures {
  return {
    lungDice: a?.lungDice ?? null,
    heartDice: a?.heartDice ?? null,
    ctrMae: a?.ctrMae ?? null,
    ctrImages: a?.ctrImages ?? null,
  };
}

export function gateOf(g: TModelMetrics['gate'] | undefined): TGateFigures {
  const radiographs = Object.entries(g?.radiographs ?? {}).map(([source, r]) => ({
    source,
    n: r.n,
    netRefused: r.netRefused,
    checksRefused: r.deterministicRefused,
    invertedFlagged: r.invertedCopies?.flaggedInverted ?? null,
  }));
  const negatives = Object.entries(g?.negatives ?? {}).map(([kind, r]) => ({ kind, n: r.n, refused: r.refused }));
  const all = negatives.find((r) => r.kind === 'all');
  return {
    rejectThreshold: g?.rejectThreshold ?? null,
    radiographs,
    negatives: negatives.filter((r) => r.kind !== 'all'),
    allNegatives: all ? { n: all.n, refused: all.refused } : null,
  };
}
