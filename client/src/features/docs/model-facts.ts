/**
 * Figures about the model for the public page, read at build time from the shipped model card's
 * measured results (models/cxr/metrics.json, written by models/train/model_card_v2.py). Nothing here is
 * typed by hand: when the file is absent (a checkout without a trained model) the page states no
 * figures instead of inventing them.
 */
import { parseModelScope, type TModelScope } from './model-scope';

const cards = import.meta.glob<unknown>('../../../../models/cxr/metrics.json', { eager: true, import: 'default' });
const manifests = import.meta.glob<unknown>('../../../../models/cxr/manifest.json', { eager: true, import: 'default' });

export interface TModelFacts {
  modelName: string;
  modelVersion: string;
  /** Share of held-out test images whose top label (normal / pneumonia / COVID-19) was right. */
  accuracy: number;
  /** Mean one-vs-rest ROC AUC over those classes. */
  macroAuc: number;
  testImages: number;
  /** How many findings each analysis reports (with a probability each). */
  findings: number;
  classes: string[];
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function parseModelFacts(raw: unknown): TModelFacts | null {
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as Record<string, unknown>;
  const accuracy = num(m.accuracy);
  const macroAuc = num(m.macroAuc ?? m.macro_auc);
  const testImages = num(m.testImages);
  const labels = Array.isArray(m.findingLabels) ? m.findingLabels : Array.isArray(m.findings) ? m.findings : null;
  const findings = num(m.numberOfFindings) ?? labels?.length ?? null;
  if (accuracy === null || macroAuc === null || findings === null) return null;
  return {
    modelName: typeof m.modelName === 'string' ? m.modelName : 'the shipped model',
    modelVersion: typeof m.modelVersion === 'string' ? m.modelVersion : '',
    accuracy,
    macroAuc,
    testImages: testImages ?? 0,
    findings,
    classes: Array.isArray(m.classes) ? m.classes.filter((c): c is string => typeof c === 'string') : [],
  };
}

export const MODEL_FACTS: TModelFacts | null = parseModelFacts(Object.values(cards)[0]);

/** 0.9731 -> '97.3%' (one decimal: the test split is too small for more to mean anything). */
export function percent(v: number): string {
  return `${(v * 100).toFixed(1)}%`;
}

/** What the shipped model assesses and does not, from its manifest; null without a model. */
export const MODEL_SCOPE: TModelScope | null = parseModelScope(Object.values(manifests)[0]);
