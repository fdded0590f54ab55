import { z } from 'zod';

/**
 * metrics.json (the only source for figures shown in the product) and evaluation.json of a
 * model folder, written by the Python card writer. Read defensively: a field an evaluation did
 * not write (or wrote in an older shape) is null, never a made-up value; only the identity
 * (modelVersion) is required. Unknown keys are kept for the model card page.
 */
const num = z.number().finite().nullable().catch(null);

export const ZFindingMetrics = z.looseObject({
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

export const ZModelMetrics = z.looseObject({
  modelName: z.string().catch(''),
  modelVersion: z.string(),
  testImages: num,
  /** The rule a candidate finding had to meet to ship (model 2+). */
  shipRule: z.string().nullable().catch(null),
  findings: z.record(z.string(), ZFindingMetrics).catch({}),
});
export type TModelMetrics = z.infer<typeof ZModelMetrics>;

/** evaluation.json: the test pass that decided shipping (all optional: its shape follows the evaluation). */
export const ZModelEvaluation = z.looseObject({
  evaluatedAt: z.string().nullable().catch(null),
  testImages: num,
  shipRule: z.string().nullable().catch(null),
  decisions: z.record(z.string(), z.looseObject({ shipped: z.boolean().nullable().catch(null) })).catch({}),
});
export type TModelEvaluation = z.infer<typeof ZModelEvaluation>;
