/**
 * Figures about the shipped model, read from its measured results (models/cxr/metrics.json).
 * Pure, so it can be tested without a build; model-facts.ts feeds it the file.
 *
 * Model 1's card has one accuracy and a macro AUC over its three classes. Model 2's card
 * (schemaVersion 2) has no single accuracy: each shipped finding has its own ROC AUC, with a
 * 95 % interval, on the held-out population that decided whether it ships.
 */
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

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function str(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : fallback;
}

function figuresOf(m: Record<string, unknown>): TFindingFigure[] {
  const per =
    m.findings && typeof m.findings === 'object' && !Array.isArray(m.findings)
      ? (m.findings as Record<string, unknown>)
      : null;
  const shipped = Array.isArray(m.findingLabels)
    ? m.findingLabels.filter((l): l is string => typeof l === 'string')
    : [];
  if (!per) return [];
  const out: TFindingFigure[] = [];
  for (const label of shipped) {
    const f = per[label] as Record<string, unknown> | undefined;
    const auc = num(f?.auc);
    const ci = Array.isArray(f?.aucCi95) ? f.aucCi95.map(num) : [];
    if (!f || auc === null || ci.length !== 2 || ci[0] === null || ci[1] === null) continue;
    out.push({
      label,
      display: str(f.display, label),
      auc,
      ci95: [ci[0]!, ci[1]!],
      population: str(f.population),
      figureFrom: str(f.figureFrom),
    });
  }
  return out;
}

export function parseModelFacts(raw: unknown): TModelFacts | null {
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as Record<string, unknown>;
  const accuracy = num(m.accuracy);
  const macroAuc = num(m.macroAuc ?? m.macro_auc);
  const figures = figuresOf(m);
  const labels = Array.isArray(m.findingLabels) ? m.findingLabels : Array.isArray(m.findings) ? m.findings : null;
  const findings = num(m.numberOfFindings) ?? labels?.length ?? null;
  const hasHeadline = accuracy !== null && macroAuc !== null;
  if (findings === null || (!hasHeadline && figures.length === 0)) return null;
  return {
    modelName: str(m.modelName, 'the shipped model'),
    modelVersion: str(m.modelVersion),
    accuracy: hasHeadline ? accuracy : null,
    macroAuc: hasHeadline ? macroAuc : null,
    figures,
    testImages: num(m.testImages) ?? 0,
    findings,
    classes: Array.isArray(m.classes) ? m.classes.filter((c): c is string => typeof c === 'string') : [],
  };
}
