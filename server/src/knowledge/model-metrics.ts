import { ZModelMetrics, type TFindingMetrics, type TModelMetrics } from '@contracts/model/metrics.js';
import { createModelFileReader } from './read-model-file.js';

/**
 * The shipped model card's measured figures (MODEL_DIR/metrics.json, written by the model's
 * evaluation script), read the way the public page reads them: nothing is typed by hand, and
 * a missing or unreadable file means no figure is quoted. Only the per-finding figures the chat
 * needs are kept; a field the evaluation did not write is null.
 */
export type { TFindingMetrics, TModelMetrics };

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
