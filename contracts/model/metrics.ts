import { z } from 'zod';
import { entriesOf, flag, interval, listOf, num, orNull, text } from './lenient.js';

/**
 * metrics.json of a model folder (the only source for figures shown in the product), written by
 * the Python card writer; evaluation.json (evaluation.ts) shares its tables. Read leniently (see
 * lenient.ts): only the identity (modelVersion) is required. Unknown keys are kept.
 */

/** One candidate finding and the figure that decided whether it ships (model 2+). */
export const ZFindingMetrics = z.looseObject({
  display: text,
  /** true: reported with a probability; false: "not assessed"; null: the file does not say. */
  shipped: flag,
  n: num,
  positives: num,
  auc: num,
  aucCi95: interval,
  sensitivity: num,
  specificity: num,
  threshold: num,
  /** Which images the figure is on, when the evaluation names it (model 2: the deciding population). */
  population: text,
  /** Where the figure comes from ('test split', a cross-validation); null: the held-out test split. */
  figureFrom: text,
});
export type TFindingMetrics = z.output<typeof ZFindingMetrics>;

/** One held-out test population and the figures of the output scored on it. */
export const ZTestPopulation = z.looseObject({
  output: text,
  n: num,
  positives: num,
  auc: num,
  aucCi95: interval,
  threshold: num,
  sensitivity: num,
  specificity: num,
});
export type TTestPopulation = z.output<typeof ZTestPopulation>;

/** A source label in a group: its count and, per output, `called<Output>` counts at the shipped thresholds. */
export const ZGroupLabel = z.object({ n: num }).catchall(num);

/** A group ('source=…', 'age_group=…'): its count, its labels and per-output `<output>Auc` figures. */
export const ZGroup = z.object({ n: num, labels: entriesOf(ZGroupLabel) }).catchall(num);
export type TGroup = z.output<typeof ZGroup>;

/** A target the evaluation set itself: the measured figure (an AUROC, or a count) against it. */
export const ZTarget = z.looseObject({ population: text, auc: num, target: num, met: flag, from: text });

export const ZAnatomyFigures = z.looseObject({ lungDice: num, heartDice: num, ctrMae: num, ctrImages: num });

export const ZGateFigures = z.looseObject({
  rejectThreshold: num,
  radiographs: entriesOf(
    z.looseObject({
      n: num,
      netRefused: num,
      deterministicRefused: num,
      invertedCopies: orNull(z.looseObject({ flaggedInverted: num })),
    }),
  ),
  /** Per kind of non-radiograph, and an 'all' row. */
  negatives: entriesOf(z.looseObject({ n: num, refused: num })),
});

/** One candidate output scored on the external films (model 4: other hospitals' films). */
export const ZExternalCandidate = z.looseObject({
  display: text,
  /** Which external films the figure is on (e.g. 'COVID-19 vs other adult pneumonia'). */
  population: text,
  auc: num,
  aucCi95: interval,
  positives: num,
  negatives: num,
  sensitivity: num,
  specificity: num,
  threshold: num,
  shipped: flag,
});
export type TExternalCandidate = z.output<typeof ZExternalCandidate>;

/**
 * Model 4: the external validation (films from other hospitals, none trained on). Operating
 * points, calibration and the shipping decision were chosen on these films (`caveat`).
 */
export const ZExternalFigures = z.looseObject({
  dataset: text,
  films: num,
  patients: num,
  caveat: text,
  shipRule: text,
  candidates: entriesOf(ZExternalCandidate),
  projection: orNull(z.looseObject({ auc: num, aucCi95: interval, n: num })),
});
export type TExternalFigures = z.output<typeof ZExternalFigures>;

export const ZModelMetrics = z.looseObject({
  modelName: z.string().catch(''),
  modelVersion: z.string(),
  modelSha256: text,
  anatomySha256: text,
  trainingData: text,
  evaluatedAt: text,
  testImages: num,
  /** How many findings each analysis reports, and which (shipped findings, in card order). */
  numberOfFindings: num,
  findingLabels: listOf(z.string()),
  /** Model 1: its classes, top-label accuracy and macro one-vs-rest AUROC. */
  classes: listOf(z.string()),
  accuracy: num,
  macroAuc: num,
  /** The rule a candidate finding had to meet to ship (model 2+). */
  shipRule: text,
  findings: entriesOf(ZFindingMetrics),
  targets: listOf(ZTarget),
  test: entriesOf(ZTestPopulation),
  groups: entriesOf(ZGroup),
  anatomy: orNull(ZAnatomyFigures),
  gate: orNull(ZGateFigures),
  external: orNull(ZExternalFigures),
});
export type TModelMetrics = z.output<typeof ZModelMetrics>;

/** The figures, or null when the file is absent or names no model version (nothing to attribute them to). */
export function parseModelMetrics(raw: unknown): TModelMetrics | null {
  const r = ZModelMetrics.safeParse(raw);
  return r.success ? r.data : null;
}
