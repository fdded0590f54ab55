import { z } from 'zod';
import { flag, listOf, orNull, text } from './lenient.js';
import { ZManifestFinding } from './manifest.js';

/**
 * The parts of manifest.json that the server and the pages describe the model by (identity,
 * findings, the uncertain band), read leniently (lenient.ts): a page or a site tool shows "not
 * reported" for what another model version lacks. Running a model is the strict
 * ZModelManifest's job (manifest.ts): the worker refuses a manifest that fails it.
 */
const ZShownFinding = z.looseObject({
  label: z.string().regex(/\S/),
  display: text,
  threshold: orNull(ZManifestFinding.shape.threshold.unwrap()),
  /** Issue 48: where a flag reads "Likely" (null: from 50 %). */
  likelyThreshold: orNull(ZManifestFinding.shape.likelyThreshold.unwrap()),
  /** The summary score (e.g. abnormal), never the top finding. */
  summary: flag,
  population: text,
  /** 'pediatric' or 'adult': a finding reported for one age group only. */
  ageGroup: text,
  /** Set on a hint conditional on another finding (the pediatric bacterial/viral hints). */
  conditionalOn: orNull(z.looseObject({})),
});

export const ZManifestSummary = z.looseObject({
  modelName: text,
  modelVersion: text,
  sha256: text,
  trainingData: text,
  /** Log-odds half-width of the "uncertain" band around each threshold. */
  uncertainMargin: orNull(z.number().finite().min(0)),
  changeMargin: orNull(z.number().finite().min(0)),
  findings: listOf(ZShownFinding),
  notAssessed: listOf(ZShownFinding),
  anatomy: orNull(z.looseObject({ sha256: text })),
});
export type TManifestSummary = z.output<typeof ZManifestSummary>;

/** The summary; an absent or malformed file reads as one that reports nothing. */
export function parseManifestSummary(raw: unknown): TManifestSummary {
  const r = ZManifestSummary.safeParse(raw);
  return r.success ? r.data : ZManifestSummary.parse({});
}
