import { z } from 'zod';
import { entriesOf, num, text } from './lenient.js';
import { ZFindingMetrics, ZGroup, ZTestPopulation } from './metrics.js';

/**
 * evaluation.json of a model folder: the test pass that decided shipping, written by the Python
 * evaluation. metrics.json repeats most of it; the pages fall back to it for what metrics.json
 * lacks. Every field is lenient (lenient.ts): its shape follows the evaluation. Unknown keys are kept.
 */
export const ZModelEvaluation = z.looseObject({
  evaluatedAt: text,
  testImages: num,
  shipRule: text,
  /** Per candidate finding: its deciding figure and whether it shipped. */
  decisions: entriesOf(ZFindingMetrics),
  test: entriesOf(ZTestPopulation),
  byGroup: entriesOf(ZGroup),
});
export type TModelEvaluation = z.output<typeof ZModelEvaluation>;

/** The evaluation; an absent or malformed file reads as one with no figures. */
export function parseModelEvaluation(raw: unknown): TModelEvaluation {
  const r = ZModelEvaluation.safeParse(raw);
  return r.success ? r.data : ZModelEvaluation.parse({});
}
