import {
  parseModelMetrics,
  ZModelMetrics,
  type TFindingMetrics,
  type TModelMetrics,
} from '@contracts/model/metrics.js';
import { createModelFileReader } from './read-model-file.js';

/**
 * The shipped model card's measured figures (MODEL_DIR/metrics.json, written by the model's
 * evaluation script), read through the same contract as the public page (contracts/model/
 * metrics.ts): nothing is typed by hand, a missing or unreadable file means no figure is quoted,
 * and a field the evaluation did not write is null.
 */
export { parseModelMetrics, type TFindingMetrics, type TModelMetrics };

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
