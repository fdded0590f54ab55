/**
 * The shipped model's files, read at build time like docs/model-facts.ts does: replacing
 * models/cxr and rebuilding is all it takes for the page to follow a new model. A file that is
 * absent (a checkout without a trained model) is simply undefined and its figures read "not reported".
 */
import { parseModelCard, type TModelCard } from './parse-model-card';

const first = <T>(files: Record<string, T>): T | undefined => Object.values(files)[0];

const metrics = import.meta.glob<unknown>('../../../../models/cxr/metrics.json', { eager: true, import: 'default' });
const manifest = import.meta.glob<unknown>('../../../../models/cxr/manifest.json', { eager: true, import: 'default' });
const evaluation = import.meta.glob<unknown>('../../../../models/cxr/evaluation.json', {
  eager: true,
  import: 'default',
});
const card = import.meta.glob<unknown>('../../../../models/cxr/card.json', { eager: true, import: 'default' });

export const MODEL_CARD: TModelCard = parseModelCard({
  metrics: first(metrics),
  manifest: first(manifest),
  evaluation: first(evaluation),
  card: first(card),
});
