/**
 * Figures about the shipped model, read from its measured results (models/cxr/metrics.json)
 * through the shared contract (contracts/model/metrics.ts). Pure, so it can be tested without a
 * build; model-facts.ts feeds it the file.
 *
 * Model 1's card has one accuracy and a macro AUC over its three classes. Model 2's card
 * (schemaVersion 2) has no single accuracy: each shipped finding has its own ROC AUC, with a
 * 95 % interval, on the held-out population that decided whether it ships.
 */
import { parseModelMetrics, type TModelMetrics } from '@contracts/model/metrics.js';

export interface TFindingFigure {
  label: string;
  display: string;
  auc: number;
  ci95: [number, number];
  /** The held-out population the figure was measured on, e.g. 'adult infection vs adult normal'. */
  population: string;
  /** 'test split' or the cross-validation it came from. */
  figureFrom: string;
}

export interface TModelFacts {
  modelName: string;
  modelVersion: string;
  /** Model 1: share of held-out test images whose top label was right; null for model 2. */
  accuracy: number | null;
  /** Model 1: mean one-vs-rest ROC AUC over its classes; null for model 2. */
  macroAuc: number | null;
  /** Model 2: one figure per shipped finding; empty for model 1. */
  figures: TFindingFigure[];
  testImages: number;
  /** How many findings each analysis reports (with a probability each). */
  findings: number;
  classes: string[];
}

/** A figure for each shipped finding (in card order) that has an AUROC and its interval. */
function figuresOf(m: TModelMetrics): TFindingFigure[] {
  return m.findingLabels.flatMap((label) => {
    const f = m.findings[label];
    if (!f || f.auc === null || f.aucCi95 === null) return [];
    const { auc, aucCi95: ci95 } = f;
    return [
      { label, display: f.display ?? label, auc, ci95, population: f.population ?? '', figureFrom: f.figureFrom ?? '' },
    ];
  });
}

export function parseModelFacts(raw: unknown): TModelFacts | null {
  const m = parseModelMetrics(raw);
  if (!m) return null;
  const figures = figuresOf(m);
  const findings = m.numberOfFindings ?? (m.findingLabels.length > 0 ? m.findingLabels.length : null);
  const hasHeadline = m.accuracy !== null && m.macroAuc !== null;
  if (findings === null || (!hasHeadline && figures.length === 0)) return null;
  return {
    modelName: m.modelName || 'the shipped model',
    modelVersion: m.modelVersion,
    accuracy: hasHeadline ? m.accuracy : null,
    macroAuc: hasHeadline ? m.macroAuc : null,
    figures,
    testImages: m.testImages ?? 0,
    findings,
    classes: m.classes,
  };
}
