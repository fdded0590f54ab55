import { z } from 'zod';
import { createModelFileReader } from './read-model-file.js';

/**
 * The shipped model card's measured figures (MODEL_DIR/metrics.json, written by the model's
 * evaluation script), read the way the public page reads them: nothing is typed by hand, and
 * a missing or unreadable file means no figure is quoted. Only the per-finding figures the chat
 * needs are kept; a field the evaluation did not write is null.
 */
const num = z.number().finite().nullable().catch(null);

const ZFindingMetrics = z.object({
  n: num,
  positives: num,
  auc: num,
  aucCi95: z.tuple([z.number(), z.number()]).nullable().catch(null),
  sensitivity: num,
  specificity: num,
  /** Which images the figure is on, when the evaluation names it (model 2: the deciding population). */
  population: z.string().nullable().catch(null),
  /** Where the figure comes from ('test split', a cross-validation); null: the held-out test split. */
  figureFrom: z.string().nullable().catch(null),
});
export type TFindingMetrics = z.infer<typeof ZFindingMetrics>;

const ZModelMetrics = z.object({
  modelName: z.string().catch(''),
  modelVersion: z.string(),
  testImages: num,
  /** The rule a candidate finding had to meet to ship (model 2+). */
  shipRule: z.string().nullable().catch(null),
  findings: z.record(z.string(), ZFindingMetrics).catch({}),
});
export type TModelMetrics = z.infer<typeof ZModelMetrics>;

export function parseModelMetrics(raw: unknown): TModelMetrics | null {
  const parsed = ZModelMetrics.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** MODEL_DIR/metrics.json, re-read only when the file changes (a model swap needs no restart). */
export const loadModelMetrics = createModelFileReader('metrics.json', ZModelMetrics);

/**
 * The card's figures for the model that produced a stored result, or null when the shipped
 * model is another version: an old analysis must not be described with a newer model's figures.
 */
export function metricsForResult(modelDir: string, result: { modelVersion: string }): TModelMetrics | null {
  const metrics = loadModelMetrics(modelDir);
  return metrics && metrics.modelVersion === result.modelVersion ? metrics : null;
}
