import { z } from 'zod';
import { AnalysisStage } from './analysis-stage.js';
import { ZModelId, ZRegistryEntry } from './model/registry.js';
import { ZWorkerResult } from './schemas/analysis.js';

/** Queue names in one place; each is prefixed by QUEUE_PREFIX so tests can use their own. */
export const QueueName = {
  /** server → worker: run the model on an uploaded image. */
  Analysis: 'analysis',
  /** worker → server: store the model's result and write the report. */
  AnalysisResult: 'analysis-result',
  /** server → worker: run a shadow model on a study whose live report is stored (issue 47). */
  AnalysisShadow: 'analysis-shadow',
  /** worker → server: a shadow model's outputs, stored apart from the analysis. */
  ShadowResult: 'shadow-result',
  /** server → worker: check an uploaded ONNX model and write its registry folder (issue 47); the answer is the job's return value. */
  ModelImport: 'model-import',
  /** server → server: a signed report or addendum on its way to the RIS (HL7) or the PACS (SR). */
  ReportDelivery: 'report-delivery',
} as const;

/** The analysis job carries ids, a storage key and the film's AP/PA tag only: never a name, an age or a history. */
export const ZAnalysisJob = z.object({
  analysisId: z.uuid(),
  storageKey: z.string().min(1),
  mediaType: z.string().min(1),
  /** A DICOM film's ViewPosition when it is AP or PA (an acquisition fact, not patient data): it wins over the model's projection. */
  viewPosition: z.enum(['AP', 'PA']).optional(),
  /** The registry id of the model to run (issue 47); absent (older jobs): the worker's MODEL_DIR. */
  modelId: ZModelId.optional(),
});
export type TAnalysisJob = z.infer<typeof ZAnalysisJob>;

/** A shadow run (issue 47): ids and the storage key only, added after the live report is stored. */
export const ZShadowJob = z.object({
  analysisId: z.uuid(),
  modelId: ZModelId,
  storageKey: z.string().min(1),
  mediaType: z.string().min(1),
  viewPosition: z.enum(['AP', 'PA']).optional(),
});
export type TShadowJob = z.infer<typeof ZShadowJob>;

/** A shadow model's outputs: numbers per product finding, never text (null: the film was refused). */
export const ZShadowResultJob = z.object({
  analysisId: z.uuid(),
  modelId: ZModelId,
  modelVersion: z.string().max(100),
  probabilities: z.record(z.string().max(100), z.number().min(0).max(1)).nullable(),
  thresholds: z.record(z.string().max(100), z.number().min(0).max(1)),
  inferenceMs: z.number().min(0),
  rssMb: z.number().min(0),
});
export type TShadowResultJob = z.infer<typeof ZShadowResultJob>;

/** A model import (issue 47): the staging folder's id only; the file and the request lie in it. */
export const ZModelImportJob = z.object({ uploadId: z.uuid() });
export type TModelImportJob = z.infer<typeof ZModelImportJob>;

/**
 * What the server writes beside the uploaded file in `<registry>/.uploads/<uploadId>/request.json`
 * (the admin's display name is the registry's record of who imported it, as the CLI's --by).
 */
export const ZModelImportRequest = z.object({
  contract: z.enum(['torchxrayvision', 'manifest']),
  name: z.string().min(1).max(100),
  version: z.string().min(1).max(100).optional(),
  importedBy: z.string().min(1).max(200),
  /** Whether manifest.json was uploaded beside model.onnx. */
  manifest: z.boolean(),
});
export type TModelImportRequest = z.infer<typeof ZModelImportRequest>;

/** The worker's answer to an import: the registry entry, or the refusal's message (nothing written). */
export const ZModelImportAnswer = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), entry: ZRegistryEntry }),
  z.object({ ok: z.literal(false), kind: z.enum(['refused', 'conflict']), message: z.string().max(2000) }),
]);
export type TModelImportAnswer = z.infer<typeof ZModelImportAnswer>;

/** The staging folder of an upload under the registry root (dot-named: the registry's listing skips it). */
export const MODEL_UPLOADS_DIR = '.uploads';

/**
 * What the worker hands back. Both ends parse it: the worker before adding the job (a drift fails
 * the analysis at once, with the offending paths) and the server's finalizer on receipt.
 */
export const ZAnalysisResultJob = z.object({
  analysisId: z.uuid(),
  /** The pipeline's structured result (numbers, labels and codes; no patient data, no report text). */
  result: ZWorkerResult,
  heatmap: z
    .object({
      storageKey: z.string(),
      sha256: z.string(),
      bytes: z.number(),
      width: z.number(),
      height: z.number(),
      /** The overlay keeps its film's coding (draw-overlay.ts); a job from an older worker has no field: a PNG. */
      mediaType: z.enum(['image/png', 'image/jpeg']).default('image/png'),
      /** The finding the overlay shows (absent from older workers: the result's first heatmap). */
      label: z.string().max(100).optional(),
    })
    .nullable(),
});
export type TAnalysisResultJob = z.infer<typeof ZAnalysisResultJob>;

/**
 * A report delivery job carries the id of its report_deliveries row only: the report, the
 * patient and the destination are read from the database when it runs (issue 41).
 */
export const ZReportDeliveryJob = z.object({ deliveryId: z.uuid() });
export type TReportDeliveryJob = z.infer<typeof ZReportDeliveryJob>;

/** Redis pub/sub channel on which every stage change is announced (ids only). */
export const analysisEventsChannel = (prefix: string) => `${prefix}:analysis-events`;
export const ZAnalysisEvent = z.object({
  analysisId: z.uuid(),
  chatId: z.uuid().optional(),
  stage: z.enum(AnalysisStage),
  /** Terminal 'refused' / 'failed' events: the safe message the clinician is shown (never patient data). */
  message: z.string().max(500).optional(),
});
export type TAnalysisEvent = z.infer<typeof ZAnalysisEvent>;

/** Both queues keep the same bounded history: a day of completed jobs, a week of failed ones. */
const jobRetention = {
  removeOnComplete: { count: 1000, age: 24 * 3600 },
  removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
} as const;

export const analysisJobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
  ...jobRetention,
} as const;

/** Result jobs are small and matter: retry them generously, keep few. */
export const resultJobOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 500 },
  ...jobRetention,
} as const;

/** A report delivery: the destination's attempts, doubling waits from `delayMs` (an away RIS or PACS comes back). */
export const reportDeliveryJobOptions = (attempts: number, delayMs: number) =>
  ({ attempts, backoff: { type: 'exponential', delay: delayMs }, ...jobRetention }) as const;
