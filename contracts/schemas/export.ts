import { z } from 'zod';
import { ZHeatGrid } from '../heat-grid.js';
import { ZAnatomy, ZFindingCall, ZNotAssessed, ZProjection, ZWithdrawn } from './analysis.js';

/**
 * Exports of an analysed chat. ZExportReport is the versioned JSON export
 * (`chest-doctor-ai/report@7`, documented in docs/export-schema.md); the PDF, DOCX and FHIR
 * exports are rendered from the same object, so every format says the same thing.
 */
/**
 * Documents are closed, so every shape change is a new version: @2 added `anatomy` and
 * `notAssessed` (model 2), @3 the optional `findings[].modelThreshold` and `clinicianAssessment` (issue 17),
 * @4 the optional `anatomy.ctrMeasured`, `anatomy.ctrUnreliable` and `notAssessed[].reason` (model 3),
 * @5 the call `possible`, `projection`, `withdrawn` and `notAssessed[].code` (model 4),
 * @6 `findings[].heatmap`, the heat values of each flagged finding (issue 42),
 * @7 `report.signed`, the radiologist's signed report (issue 49).
 */
export const EXPORT_SCHEMA_ID = 'chest-doctor-ai/report@7';

export const EXPORT_FORMATS = ['pdf', 'docx', 'json', 'fhir'] as const;
export const ZExportFormat = z.enum(EXPORT_FORMATS);
export type TExportFormat = z.infer<typeof ZExportFormat>;

export const EXPORT_MESSAGES = {
  noAnalysis: 'This chat has no finished analysis to export yet',
  chatNotFound: 'Chat not found',
} as const;

export const EXPORT_DISCLAIMER =
  'This report was produced by an AI model. It is assistive only and not a substitute for professional judgement: ' +
  "a qualified clinician must review the image together with the patient's history and examination.";

export const ZExportFinding = z.object({
  /** Stable machine label, e.g. 'pneumonia'. */
  label: z.string(),
  display: z.string(),
  /** Calibrated probability, 0..1. */
  probability: z.number().min(0).max(1),
  /** The operating threshold the call was made at, 0..1. */
  threshold: z.number().min(0).max(1),
  /** 'positive' only from 50 %; 'possible': flagged at a high-sensitivity threshold below 50 % (@5). */
  call: ZFindingCall,
  /** Set when a site threshold decided the call (issue 17): the model's own default threshold. */
  modelThreshold: z.number().min(0).max(1).optional(),
  /** The clinician's own reading of this finding (issue 17 feedback), beside the model's call. */
  clinicianAssessment: z
    .object({
      verdict: z.enum(['agree', 'disagree']),
      reading: z.enum(['present', 'absent']),
      note: z.string().nullable(),
      updatedAt: z.iso.datetime(),
    })
    .optional(),
  /**
   * A flagged finding's heat values (@6; contracts/heat-grid.ts): a grid over the whole film,
   * row-major from the top left, one byte a cell (heat 0..1 as 0..255, 0 outside the lungs), base64.
   */
  heatmap: ZHeatGrid.optional(),
});
export type TExportFinding = z.infer<typeof ZExportFinding>;

/** A finding named by its label and display name (what the signed impression left out or added). */
const ZNamedFinding = z.object({ label: z.string(), display: z.string() });

/**
 * The radiologist's signed report (@7, issue 49): once signed it is the report, and the AI's
 * figures in the rest of the document are the device's output only. Null while a draft.
 */
export const ZExportSigned = z.object({
  /** 'amended' once a signed addendum corrects it. */
  status: z.enum(['final', 'amended']),
  /** The signer's name as it was at signing; null only for a row signed before names were kept. */
  signedBy: z.string().nullable(),
  signedAt: z.iso.datetime(),
  sections: z.object({
    examination: z.string(),
    comparison: z.string(),
    findings: z.string(),
    impression: z.string(),
  }),
  addenda: z.array(z.object({ text: z.string(), signedBy: z.string(), signedAt: z.iso.datetime() })),
  /** Flagged by the model but not stated in the signed impression: never to be read as present. */
  removed: z.array(ZNamedFinding),
  /** Stated in the signed impression though the model did not flag it. */
  added: z.array(ZNamedFinding),
});
export type TExportSigned = z.infer<typeof ZExportSigned>;

export const ZExportReport = z.object({
  schema: z.literal(EXPORT_SCHEMA_ID),
  generatedAt: z.iso.datetime(),
  chat: z.object({ id: z.uuid(), title: z.string(), createdAt: z.iso.datetime() }),
  analysis: z.object({
    id: z.uuid(),
    status: z.enum(['completed', 'refused']),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
  }),
  patient: z.object({
    name: z.string(),
    /** Years; null when the chat was started without an age. */
    age: z.number().int().min(0).max(150).nullable(),
    /** The clinician's notes as 'key: value' entries; empty when there were none. */
    medicalHistory: z.array(z.string()),
  }),
  model: z.object({ name: z.string(), version: z.string(), cardUrl: z.url() }),
  /** The image check that runs before the classifier; a refused image has no findings. */
  gate: z.object({ accepted: z.boolean(), reason: z.string().nullable(), flags: z.array(z.string()) }),
  findings: z.array(ZExportFinding),
  /** Candidate findings this model version cannot back on held-out data: no probability, shown as "not assessed". */
  notAssessed: z.array(ZNotAssessed),
  /** The anatomy stage (model 2+): cardiothoracic ratio and outlines; null for models without one or a refused image. */
  anatomy: ZAnatomy.nullable(),
  /** AP or PA (model 4's projection output, or the image's DICOM ViewPosition, which wins); null when unknown. */
  projection: ZProjection.nullable(),
  /** Outputs withdrawn from the findings (model 4), each with its external-validation figure. */
  withdrawn: z.array(ZWithdrawn),
  topFinding: z.object({ label: z.string(), display: z.string() }).nullable(),
  /**
   * `text`: the assistant's written report (markdown) as shown in the chat, the AI's words;
   * `signed`: the radiologist's signed report (@7), null while the report is a draft.
   */
  report: z.object({
    format: z.literal('markdown'),
    text: z.string(),
    // Defaulted so a document built without a report (tests, the bench) parses as unsigned.
    signed: ZExportSigned.nullable().default(null),
  }),
  /** The explanation overlay (PNG or JPEG), base64; null when the analysis produced none. */
  heatmap: z.object({ mediaType: z.string(), dataBase64: z.string() }).nullable(),
  disclaimer: z.string(),
});
export type TExportReport = z.infer<typeof ZExportReport>;

export const ZExportInput = z.object({ chatId: z.string().max(100), format: ZExportFormat });

/** tRPC answer: the file itself (exports are small: a few hundred KB at most). */
export const ZExportFile = z.object({
  filename: z.string(),
  contentType: z.string(),
  dataBase64: z.string(),
});
export type TExportFile = z.infer<typeof ZExportFile>;
