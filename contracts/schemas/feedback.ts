import { z } from 'zod';
import { ZFindingCall } from './analysis.js';

/** Clinician feedback on one finding of an analysed chat (issue 17). */
export const FEEDBACK_NOTE_MAX = 1000;

export const FEEDBACK_MESSAGES = {
  chatNotFound: 'Chat not found',
  noAnalysis: 'This chat has no finished analysis to give feedback on',
  unknownFinding: 'The analysis has no such finding',
  invalidVerdict: 'Verdict must be "agree" or "disagree"',
  noteTooLong: `The note must be at most ${FEEDBACK_NOTE_MAX} characters`,
  saved: 'Feedback saved',
} as const;

export const ZFeedbackVerdict = z.enum(['agree', 'disagree'], { error: FEEDBACK_MESSAGES.invalidVerdict });
export const ZFeedbackReading = z.enum(['present', 'absent']);

/** tRPC input (camelCase). `reading` only matters for a disagreement; it defaults to the opposite of the model's call. */
export const ZFeedbackInput = z.object({
  chatId: z.string().max(100),
  finding: z.string().min(1).max(100),
  verdict: ZFeedbackVerdict,
  reading: ZFeedbackReading.optional(),
  note: z.string().trim().max(FEEDBACK_NOTE_MAX, FEEDBACK_MESSAGES.noteTooLong).optional(),
});
export type TFeedbackInput = z.infer<typeof ZFeedbackInput>;

/** The REST body, snake_case as the issue writes it. */
export const ZFeedbackBody = z.object({
  chat_id: z.string().max(100),
  finding: z.string().min(1).max(100),
  verdict: ZFeedbackVerdict,
  reading: ZFeedbackReading.optional(),
  note: z.string().trim().max(FEEDBACK_NOTE_MAX, FEEDBACK_MESSAGES.noteTooLong).optional(),
});

export const ZFeedbackEntry = z.object({
  finding: z.string(),
  verdict: ZFeedbackVerdict,
  reading: ZFeedbackReading,
  note: z.string().nullable(),
  modelVersion: z.string(),
  modelProbability: z.number(),
  modelCall: ZFindingCall,
  updatedAt: z.string(),
});
export type TFeedbackEntry = z.infer<typeof ZFeedbackEntry>;

export const ZFeedbackList = z.object({ analysisId: z.uuid().nullable(), feedback: z.array(ZFeedbackEntry) });
export type TFeedbackList = z.infer<typeof ZFeedbackList>;
