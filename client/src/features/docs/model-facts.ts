/**
 * Figures about the model for the public page, read at build time from the shipped model card's
 * measured results (models/cxr/metrics.json, written by models/train/cxr_train/evaluate/card.py). Nothing here is
 * typed by hand: when the file is absent (a checkout without a trained model) the page states no
 * figures instead of inventing them.
 */
import { parseModelScope, type TModelScope } from './model-scope';
import { parseModelFacts, type TModelFacts } from './parse-model-facts';

export type { TFindingFigure, TModelFacts } from './parse-model-facts';

const cards = import.meta.glob<unknown>('../../../../models/cxr/metrics.json', { eager: true, import: 'default' });
const manifests = import.meta.glob<unknown>('../../../../models/cxr/manifest.json', { eager: true, import: 'default' });

export const MODEL_FACTS: TModelFacts | null = parseModelFacts(Object.values(cards)[0]);

/** 0.9731 -> '97.3%' (one decimal: the test split is too small for more to mean anything). */
export function percent(v: number): string {
  return `${(v * 100).toFixed(1)}%`;
}

/** What the shipped model assesses and does not, from its manifest; null without a model. */
export const MODEL_SCOPE: TModelScope | null = parseModelScope(Object.values(manifests)[0]);
