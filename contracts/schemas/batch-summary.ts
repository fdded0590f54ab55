import { z } from 'zod';

/**
 * `<out>.summary.json`, the cohort evaluation `npm run batch` writes for a labelled CSV
 * (docs/research.md explains every figure). Versioned by `schema`: a reader can rely on a field
 * meaning the same thing for as long as the version holds. Every run's summary is parsed with
 * this before it is written.
 */
export const BATCH_SUMMARY_SCHEMA_ID = 'chest-doctor-ai/batch-summary@1';

const ZProbability = z.number().min(0).max(1);
const ZInterval = z.tuple([z.number(), z.number()]).nullable();
const ZRate = ZProbability.nullable();

export const ZConfusion = z.object({
  tp: z.number().int().nonnegative(),
  fp: z.number().int().nonnegative(),
  fn: z.number().int().nonnegative(),
  tn: z.number().int().nonnegative(),
});

/** The figures of one finding (or the triage row) on one (sub)cohort; null with `note` when undefined. */
const ZMetrics = z.object({
  positives: z.number().int().nonnegative(),
  negatives: z.number().int().nonnegative(),
  auroc: ZRate,
  aurocCi: ZInterval,
  threshold: ZRate,
  thresholdVaries: z.boolean(),
  sensitivity: ZRate,
  sensitivityCi: ZInterval,
  specificity: ZRate,
  specificityCi: ZInterval,
  ppv: ZRate,
  ppvCi: ZInterval,
  npv: ZRate,
  npvCi: ZInterval,
  prevalence: ZRate,
  confusion: ZConfusion,
  note: z.string().nullable(),
});

export const ZFindingSummary = ZMetrics.extend({
  finding: z.string(),
  /** Films whose truth for this finding is unknown (a row that only says "abnormal", a probable typo). */
  leftOut: z.number().int().nonnegative(),
});

export const ZTriageSummary = ZMetrics.extend({
  /** abnormal-output: the model's own abnormal probability; highest-probability: the highest shipped finding's. */
  source: z.enum(['abnormal-output', 'highest-probability']),
  explanation: z.string(),
});

export const ZCohortTable = z.object({
  films: z.number().int().nonnegative(),
  findings: z.array(ZFindingSummary),
  triage: ZTriageSummary,
});

export const ZCalibrationSummary = z.object({
  finding: z.string(),
  n: z.number().int().nonnegative(),
  ece: ZRate,
  brier: ZRate,
  bins: z.array(
    z.object({
      lo: ZProbability,
      hi: ZProbability,
      n: z.number().int().nonnegative(),
      meanPredicted: ZRate,
      observed: ZRate,
    }),
  ),
});

export const ZCompareSummary = z.object({
  /** The other run's results CSV, as given, and its sha256. */
  other: z.object({ file: z.string(), sha256: z.string(), modelVersions: z.array(z.string()) }),
  findings: z.array(
    z.object({
      finding: z.string(),
      /** Films scored for this finding in both runs (matched by image sha256). */
      films: z.number().int().nonnegative(),
      positives: z.number().int().nonnegative(),
      negatives: z.number().int().nonnegative(),
      auroc: ZRate,
      aurocOther: ZRate,
      /** This run's AUROC minus the other's, with a paired (same resamples) bootstrap interval. */
      difference: z.number().nullable(),
      differenceCi: ZInterval,
      note: z.string().nullable(),
    }),
  ),
});

export const ZBatchSummary = z.object({
  schema: z.literal(BATCH_SUMMARY_SCHEMA_ID),
  reproducibility: z.object({
    command: z.string(),
    date: z.iso.datetime(),
    seed: z.number().int(),
    bootstrapResamples: z.number().int().positive(),
    /** sha256 of the input CSV (null for a folder). */
    csvSha256: z.string().nullable(),
    modelVersions: z.array(z.string()),
    /** The model file's sha256 from --model-dir's manifest, when its version is the one that answered. */
    modelSha256: z.string().nullable(),
    modelSha256Note: z.string().nullable(),
  }),
  images: z.number().int().nonnegative(),
  analysed: z.number().int().nonnegative(),
  refusedByGate: z.number().int().nonnegative(),
  notAnalysed: z.number().int().nonnegative(),
  /** Films in the bootstrap's clusters: patients when a `patient` column is given, else films. */
  clusters: z.number().int().nonnegative(),
  groupedByPatient: z.boolean(),
  findings: z.array(ZFindingSummary),
  triage: ZTriageSummary,
  groups: z.record(z.string(), ZCohortTable),
  calibration: z.array(ZCalibrationSummary),
  /** Findings the ground truth names that the model does not report. */
  notAssessed: z.array(
    z.object({
      finding: z.string(),
      positives: z.number().int(),
      reason: z.string(),
      /** Why, where the results say more (e.g. "validated only in children", "withdrawn from this model version …"). */
      detail: z.string().nullable(),
    }),
  ),
  /** Names the mapping does not know, with the CSV lines they are on (first 10). */
  unrecognised: z.array(
    z.object({
      name: z.string(),
      rows: z.number().int(),
      lines: z.array(z.string()),
      suggestion: z.string().nullable(),
    }),
  ),
  compare: ZCompareSummary.nullable(),
  /** The PNG files written beside the summary (file names, relative to it). */
  plots: z.object({ roc: z.string(), calibration: z.string() }),
});

export type TBatchSummary = z.infer<typeof ZBatchSummary>;
export type TFindingSummary = z.infer<typeof ZFindingSummary>;
export type TTriageSummary = z.infer<typeof ZTriageSummary>;
export type TCohortTable = z.infer<typeof ZCohortTable>;
export type TCalibrationSummary = z.infer<typeof ZCalibrationSummary>;
export type TCompareSummary = z.infer<typeof ZCompareSummary>;
