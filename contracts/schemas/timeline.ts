import { z } from 'zod';
import { ZFindingCall } from './analysis.js';
import { ZReportStatus } from './report.js';

/**
 * A patient's timeline (every completed analysis of one profile, oldest first) and the
 * comparison of an analysis with the one before it. Shared by the report, the grounded chat,
 * the exports, the tRPC procedure, the REST route and the client's timeline.
 */

/** What happened to one finding between two analyses; the rule is in services/timeline/compare-results.ts. */
export const ZFindingChange = z.enum(['new', 'resolved', 'higher', 'lower', 'unchanged', 'not called']);
export type TFindingChange = z.infer<typeof ZFindingChange>;

const ZCall = ZFindingCall;
const ZReading = z.object({ probability: z.number(), threshold: z.number(), call: ZCall });

export const ZFindingComparison = z.object({
  label: z.string(),
  display: z.string(),
  previous: ZReading,
  current: ZReading,
  change: ZFindingChange,
  /**
   * The finding's measured test-retest spread (absolute probability) the change was judged by;
   * null or absent: none measured, the log-odds band of the older rule was used.
   */
  spread: z.number().nullish(),
});
export type TFindingComparison = z.infer<typeof ZFindingComparison>;

export const ZComparison = z.object({
  prior: z.object({
    analysisId: z.uuid(),
    chatId: z.uuid(),
    createdAt: z.iso.datetime(),
    /** The prior's DICOM StudyDate (YYYY-MM-DD); null or absent: none stored (a browser upload), dated by its upload. */
    studyDate: z.iso.date().nullish(),
  }),
  modelVersions: z.object({ previous: z.string(), current: z.string() }),
  /** Shipped findings reported by both results; "not assessed" ones are never compared. */
  findings: z.array(ZFindingComparison),
  /** Shipped findings only one of the two model versions reports: named, never compared. */
  notCompared: z.array(
    z.object({ label: z.string(), display: z.string(), reportedBy: z.enum(['previous', 'current']) }),
  ),
  /** Cardiothoracic ratios when both films have one; change = current - previous. */
  ctr: z.object({ previous: z.number(), current: z.number(), change: z.number() }).nullable(),
  /** Why the two may not be comparable (model version, image quality, projection). */
  caveats: z.array(z.string()),
  /**
   * Why no change is called (issue 47: two different models, or an imported model without a
   * measured test-retest spread); every finding's change is then 'not called'. Null or absent: called.
   */
  notCalled: z.string().nullish(),
});
export type TComparison = z.infer<typeof ZComparison>;

export const ZTimelineInput = z.object({ profileId: z.string().max(100) });

/** One analysis on the timeline, oldest study first (by study_date, else created_at): the spec's REST fields (snake_case), plus the thumbnail's URL. */
export const ZTimelineEntry = z.object({
  chat_id: z.uuid(),
  analysis_id: z.uuid(),
  created_at: z.iso.datetime(),
  /** The DICOM StudyDate (YYYY-MM-DD); null for a browser upload, which is dated by created_at. */
  study_date: z.iso.date().nullable(),
  model_version: z.string(),
  /** label → calibrated probability (shipped findings only). */
  findings: z.record(z.string(), z.number()),
  /** label → the model's call. */
  calls: z.record(z.string(), ZCall),
  /** Cardiothoracic ratio, when this film has one. */
  ctr: z.number().optional(),
  /** The uploaded film, served by the authorised image route; null when it was deleted. */
  image_url: z.string().nullable(),
  /**
   * The radiologist's signed report (final or amended, issue 49): it says what the study showed;
   * the findings and calls above are the AI's output before it. Null while unsigned.
   */
  signed_report: z
    .object({
      status: ZReportStatus,
      /** The first line of the signed impression (contracts/signed-lead.ts). */
      lead: z.string(),
      impression: z.string(),
      signed_by: z.string().nullable(),
      signed_at: z.string().nullable(),
      addenda: z.array(z.object({ text: z.string(), signed_by: z.string(), signed_at: z.string() })),
    })
    .nullable(),
});
export type TTimelineEntry = z.infer<typeof ZTimelineEntry>;

export const ZTimeline = z.object({
  analyses: z.array(ZTimelineEntry),
  /** Display names of every label on the timeline, for legends and chart titles. */
  labels: z.array(z.object({ label: z.string(), display: z.string() })),
});
export type TTimeline = z.infer<typeof ZTimeline>;
