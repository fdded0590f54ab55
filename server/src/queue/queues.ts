import { z } from 'zod';

/** Queue names in one place; each is prefixed by QUEUE_PREFIX so tests can use their own. */
export const QueueName = {
  /** server → worker: run the model on an uploaded image. */
  Analysis: 'analysis',
  /** worker → server: store the model's result and write the report. */
  AnalysisResult: 'analysis-result',
} as const;

/** The analysis job carries ids and a storage key only: never a name, an age or a history. */
export const ZAnalysisJob = z.object({
  analysisId: z.uuid(),
  storageKey: z.string().min(1),
  mediaType: z.string().min(1),
});
export type TAnalysisJob = z.infer<typeof ZAnalysisJob>;

export const ZAnalysisResultJob = z.object({
  analysisId: z.uuid(),
  /** The pipeline's structured result (numbers and labels, no patient data). */
  result: z.record(z.string(), z.unknown()),
  heatmap: z
    .object({ storageKey: z.string(), sha256: z.string(), bytes: z.number(), width: z.number(), height: z.number() })
    .nullable(),
});
export type TAnalysisResultJob = z.infer<typeof ZAnalysisResultJob>;

/** Progress stages shown to the clinician, in order. */
export const AnalysisStage = ['queued', 'checking', 'analysing', 'writing', 'done', 'refused', 'failed'] as const;
export type TAnalysisStage = (typeof AnalysisStage)[number];

/** Redis pub/sub channel on which every stage change is announced (ids only). */
export const analysisEventsChannel = (prefix: string) => `${prefix}:analysis-events`;
export const ZAnalysisEvent = z.object({ analysisId: z.uuid(), chatId: z.uuid().optional(), stage: z.enum(AnalysisStage) });
export type TAnalysisEvent = z.infer<typeof ZAnalysisEvent>;

export const analysisJobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { count: 1000, age: 24 * 3600 },
  removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
} as const;
