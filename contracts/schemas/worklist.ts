import { z } from 'zod';
import { ZReportStatus } from './report.js';
import { ZTeamId } from './team.js';

/** Where a study from the DICOM network stands (issue 24). */
export const ZWorklistStatus = z.enum(['received', 'queued', 'analysed', 'sent', 'failed', 'skipped']);
export type TWorklistStatus = z.infer<typeof ZWorklistStatus>;

/**
 * Urgency from the calibrated outputs of the shipped findings: urgent when a finding the site made
 * urgent is called "Likely" (or flagged "Possible", when the site also counts those: issue 48),
 * review when another finding is flagged, the triage score is, or one is uncertain, routine when
 * none is; pending before a result exists; none for skipped or failed studies.
 */
export const ZUrgency = z.enum(['urgent', 'review', 'routine', 'pending', 'none']);
export type TUrgency = z.infer<typeof ZUrgency>;

/**
 * Whose reading to list (issue 32): 'mine', the studies the caller has claimed; 'unclaimed', those
 * nobody is reading (a claim older than the timeout counts as free); 'anyone', all.
 */
export const ZWorklistReader = z.enum(['mine', 'unclaimed', 'anyone']);
export type TWorklistReader = z.infer<typeof ZWorklistReader>;

export const ZWorklistInput = z.object({
  statuses: z.array(ZWorklistStatus).max(6).optional(),
  urgencies: z.array(ZUrgency).max(5).optional(),
  reader: ZWorklistReader.default('anyone'),
  /**
   * true: only studies done (marked reviewed, or their report signed); false: only the unread
   * ones (neither); absent: both, the unread first.
   */
  reviewed: z.boolean().optional(),
  limit: z.number().int().min(1).max(500).default(200),
  /** The previous page's nextCursor; absent: the first page. */
  cursor: z.string().max(500).nullish(),
  /** The team whose worklist to read (issue 32); absent: the personal space. */
  team: ZTeamId.nullish(),
});
export type TWorklistInput = z.input<typeof ZWorklistInput>;

/** A reader's mark on a study: who (their account's name) and when. */
export const ZWorklistMark = z.object({ userId: z.uuid(), name: z.string(), at: z.string() });
export type TWorklistMark = z.infer<typeof ZWorklistMark>;

export const ZWorklistItem = z.object({
  id: z.uuid(),
  status: ZWorklistStatus,
  reason: z.string().nullable(),
  urgency: ZUrgency,
  /** The lead finding's probability (sort key); null when no finding was called. */
  score: z.number().nullable(),
  /** The most probable called finding (summary score left out): its name, probability and call; null: "No finding called". */
  lead: z.object({ display: z.string(), probability: z.number(), call: z.string() }).nullable(),
  /**
   * Issue 48: why the row is Urgent, the urgent findings that made it so (label and name), most
   * probable first; empty when the row is not Urgent.
   */
  urgentBecause: z.array(z.object({ label: z.string(), display: z.string() })),
  patientName: z.string().nullable(),
  /** The DICOM PatientID (or, for a browser upload, the profile's DICOM Patient ID field). */
  patientId: z.string().nullable(),
  accessionNumber: z.string().nullable(),
  /** The DICOM StudyDate as YYYY-MM-DD; null when not sent (a browser upload has none). */
  studyDate: z.string().nullable(),
  modality: z.string().nullable(),
  viewPosition: z.string().nullable(),
  /** How it came: C-STORE, STOW-RS, or a browser upload into the team (claimed like the others, issue 49). */
  source: z.enum(['dimse', 'stow', 'upload']),
  callingAe: z.string().nullable(),
  chatId: z.uuid().nullable(),
  /** Who is reading it now ("being read by Dr X"); null when nobody is, or the claim timed out. */
  claim: ZWorklistMark.nullable(),
  /** Who marked it reviewed, and when; null while it is not. */
  review: ZWorklistMark.nullable(),
  /** Its radiology report (issue 41): draft, or signed ("Signed by …"); null before one is drafted. */
  report: z
    .object({
      status: ZReportStatus,
      signedBy: z.string().nullable(),
      signedAt: z.string().nullable(),
      /**
       * Signed (final or amended): the first line of the signed impression, which leads the row
       * instead of the AI's finding (issue 49); null while it is a draft.
       */
      lead: z.string().nullable(),
    })
    .nullable(),
  receivedAt: z.string(),
  updatedAt: z.string(),
});
export type TWorklistItem = z.infer<typeof ZWorklistItem>;
export const ZWorklist = z.object({
  items: z.array(ZWorklistItem),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type TWorklist = z.infer<typeof ZWorklist>;

/** One study of the worklist, by its id (claim, release, review). */
export const ZWorklistStudyInput = z.object({ id: z.string().max(100) });
export const ZReviewStudyInput = ZWorklistStudyInput.extend({
  /** false takes the mark back. */
  reviewed: z.boolean().default(true),
});
export type TReviewStudyInput = z.input<typeof ZReviewStudyInput>;

/** "Sign and next" (issue 41): the space whose next unread, unclaimed study to open (and claim, in a team). */
export const ZNextStudyInput = z.object({ team: ZTeamId.nullish() });
export type TNextStudyInput = z.infer<typeof ZNextStudyInput>;
/** The study opened next, or null when none is left to read. */
export const ZNextStudy = z.object({ id: z.uuid(), chatId: z.uuid() }).nullable();
export type TNextStudy = z.infer<typeof ZNextStudy>;

/** The claim and review answers: the study's reader and review after the change. */
/** The viewer's question (issue 41): the network study an analysis belongs to, to claim it there. */
export const ZAnalysisStudyInput = z.object({ analysisId: z.uuid() });
export const ZWorklistStudyState = z.object({
  id: z.uuid(),
  claim: ZWorklistMark.nullable(),
  review: ZWorklistMark.nullable(),
});
export type TWorklistStudyState = z.infer<typeof ZWorklistStudyState>;
/** The study an analysis belongs to, or null: not a team's network study (nothing to claim). */
export const ZAnalysisStudy = ZWorklistStudyState.nullable();

export const WORKLIST_MESSAGES = {
  notFound: 'Study not found',
  readersOnly: 'Only a radiologist or an admin of the team can claim or review a study',
  releaseNotYours: 'Only the reader who claimed this study or a team admin can release it',
  personalClaim: 'Claims are for team studies: a study in your personal space is read by you alone',
  claimed: 'Study claimed',
  released: 'Study released',
  reviewed: 'Study marked reviewed',
  unreviewed: 'Review mark removed',
  /** 409: "Mark reviewed" is for the reader holding the claim. */
  claimFirst: 'Claim this study before marking it reviewed',
  /** 409: someone else holds the claim. */
  heldBy: (name: string) => `Being read by ${name}`,
} as const;
