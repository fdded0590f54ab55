import { z } from 'zod';
import { hasVisibleText } from './text-rules.js';

/**
 * The radiology report of one analysis (issue 41): drafted from the stored facts when the
 * analysis finishes, edited by a reader, signed (then immutable), corrected by signed addenda.
 */
export const REPORT_SECTION_MAX = 20_000;
export const REPORT_ADDENDUM_MAX = 5_000;

export const REPORT_MESSAGES = {
  notFound: 'Report not found',
  readersOnly: 'Only a radiologist or an admin of the team can edit or sign a report',
  signed: 'The report is signed and cannot be edited: add an addendum instead',
  notSigned: 'Sign the report before adding an addendum',
  sectionTooLong: `Each section must be at most ${REPORT_SECTION_MAX} characters`,
  impressionRequired: 'The impression must not be empty',
  addendumRequired: 'Please enter the addendum',
  addendumTooLong: `The addendum must be at most ${REPORT_ADDENDUM_MAX} characters`,
  saved: 'Report saved',
  signedOk: 'Report signed',
  addendumAdded: 'Addendum signed',
  /** 409 (issue 49): the revision the reader read at is no longer the report's; nothing was saved. */
  stale: (name: string, at: Date) =>
    `This report was changed by ${name} at ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC: reload it to see their changes`,
  /** 409 (issue 46 M3): a team study's report is edited and signed by the reader holding its claim. */
  heldBy: (name: string) => `Being read by ${name}: only the reader who claimed this study can edit or sign its report`,
  claimFirst: 'Claim this study before editing or signing its report',
  revisionRequired: 'Reload the report: the revision you read it at is missing',
} as const;

export const REPORT_STATUSES = ['draft', 'final', 'amended'] as const;
export const ZReportStatus = z.enum(REPORT_STATUSES);
export type TReportStatus = z.infer<typeof ZReportStatus>;

const ZSection = z.string().max(REPORT_SECTION_MAX, REPORT_MESSAGES.sectionTooLong);

/** The report's four sections, in the order a radiology report reads. */
export const ZReportSections = z.object({
  examination: ZSection,
  comparison: ZSection,
  findings: ZSection,
  // A visible character (issue 46 I1): a zero-width space alone is as empty as nothing.
  impression: ZSection.refine(hasVisibleText, REPORT_MESSAGES.impressionRequired),
});
export type TReportSections = z.infer<typeof ZReportSections>;

export const ZReportAddendum = z.object({
  text: z.string(),
  signedBy: z.string(),
  signedAt: z.string(),
});
export type TReportAddendum = z.infer<typeof ZReportAddendum>;

/**
 * One signed report (or addendum) on its way out (issue 41): to the RIS as HL7 ('hl7') or to
 * the PACS as a Basic Text SR ('dicom'). 'pending' while the queue tries (attempts so far),
 * 'failed' once its attempts ran out; `lastError` is a code (an ACK code, a network error, a
 * DIMSE status).
 */
export const ZReportDelivery = z.object({
  destination: z.enum(['hl7', 'dicom']),
  /** 'signature' for the signed report, 'addendum' for an amended one. */
  carries: z.enum(['signature', 'addendum']),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
});
export type TReportDelivery = z.infer<typeof ZReportDelivery>;

export const ZReport = z.object({
  analysisId: z.uuid(),
  status: ZReportStatus,
  sections: ZReportSections,
  /** Who drafted it: the model ('Chest Doctor AI, <model> <version>'). */
  draftedBy: z.string(),
  /** The signer's name, and when; null while a draft. */
  signedBy: z.string().nullable(),
  signedAt: z.string().nullable(),
  addenda: z.array(ZReportAddendum),
  /** Whether the caller may edit, sign and add addenda (the server decides; the viewer hides what it would refuse). */
  canSign: z.boolean(),
  /** The signed report's deliveries to the hospital, oldest first; none while a draft or when none is configured. */
  deliveries: z.array(ZReportDelivery),
  /**
   * Bumped by every save, signature and addendum (issue 49): send it back with the next one, which
   * is refused (409, naming who changed it and when) if someone else's change came in between.
   */
  revision: z.number().int(),
});
export type TReport = z.infer<typeof ZReport>;

const ZAnalysisId = z.string().max(100);
/** The report's `revision` as the reader read it (issue 49): every save, signature and addendum names it. */
export const ZReportRevision = z
  .number({ error: REPORT_MESSAGES.revisionRequired })
  .int(REPORT_MESSAGES.revisionRequired)
  .min(1, REPORT_MESSAGES.revisionRequired)
  .max(2 ** 31 - 1, REPORT_MESSAGES.revisionRequired);
export const ZReportInput = z.object({ analysisId: ZAnalysisId });
/** The REST bodies (the analysis is in the path); the tRPC inputs below add its id. */
export const ZEditReportBody = z.object({ sections: ZReportSections, revision: ZReportRevision });
export const ZSignReportBody = z.object({ revision: ZReportRevision });
export const ZEditReportInput = ZEditReportBody.extend({ analysisId: ZAnalysisId });
export type TEditReportInput = z.infer<typeof ZEditReportInput>;
export const ZSignReportInput = ZSignReportBody.extend({ analysisId: ZAnalysisId });
export type TSignReportInput = z.infer<typeof ZSignReportInput>;
export const ZAddendumText = z
  .string({ error: REPORT_MESSAGES.addendumRequired })
  .trim()
  .min(1, REPORT_MESSAGES.addendumRequired)
  .max(REPORT_ADDENDUM_MAX, REPORT_MESSAGES.addendumTooLong);
export const ZAddendumBody = z.object({ text: ZAddendumText, revision: ZReportRevision });
export const ZAddendumInput = ZAddendumBody.extend({ analysisId: ZAnalysisId });
export type TAddendumInput = z.infer<typeof ZAddendumInput>;
