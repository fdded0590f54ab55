import { z } from 'zod';
import { hasNoControlCharacters } from './text-rules.js';
import { AnalysisStage, type TAnalysisStage } from '../analysis-stage.js';
import { currentCall, FINDING_CALLS } from '../finding-call.js';
import { ZHeatGrid } from '../heat-grid.js';

/**
 * Analysis uploads and results: the refusal messages are the spec's exact strings (section 5),
 * shared by the client form, the REST shims and the tRPC procedures.
 */
export const ANALYSIS_MESSAGES = {
  invalidType: 'Please upload a valid image file (JPEG, PNG, WebP)',
  tooLarge: 'Image size should be less than 10MB',
  oneImage: 'Please upload one image at a time',
  tooManyFields: 'Too many form fields (at most 10)',
  imageRequired: 'Please upload an X-ray image',
  invalidAge: 'Please enter a valid age (1-150)',
  invalidProfile: 'Patient information is invalid',
  nameControl: 'Patient name cannot contain line breaks, tabs or other control characters',
  tooManyPixels: 'The image has too many pixels (at most 50 megapixels)',
  queueDown: 'The analysis service is temporarily unavailable. Please try again in a minute.',
  failed: 'Failed to analyze image. Please try again.',
  analysisNotFound: 'Analysis not found',
} as const;

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** Pixel cap against decompression bombs: far above any radiograph export (a 43 cm film at 100 µm is ~18 MP). */
export const MAX_IMAGE_PIXELS = 50_000_000;

const ZText = (max: number) => z.string().max(max, ANALYSIS_MESSAGES.invalidProfile);

/**
 * The `profile` JSON text of the spec's multipart upload: full_name, age (number), medical_history.
 * A missing name becomes 'Unknown' and a missing history 'None' (spec section 9); the age, when
 * given, must be a whole number 1-150.
 */
export const ZAnalysisPatient = z.object({
  // A control character is refused, not trimmed away (issue 46 H3): the name reaches HL7 and the SR.
  full_name: ZText(200)
    .refine(hasNoControlCharacters, ANALYSIS_MESSAGES.nameControl)
    .nullish()
    .transform((v) => (v && v.trim() ? v.trim() : 'Unknown')),
  age: z
    .union([z.number(), z.string()], { error: ANALYSIS_MESSAGES.invalidAge })
    .nullish()
    .transform((v, ctx) => {
      if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return '';
      // Digits only: Number() would read "0x10" as 16 (issue 23 Info).
      const n = typeof v === 'number' ? v : /^\d{1,3}$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
      if (!Number.isInteger(n) || n < 1 || n > 150) {
        ctx.addIssue({ code: 'custom', message: ANALYSIS_MESSAGES.invalidAge });
        return z.NEVER;
      }
      return String(n);
    }),
  medical_history: ZText(5000)
    .nullish()
    .transform((v) => (v && v.trim() ? v.trim() : 'None')),
});
export type TAnalysisPatient = z.output<typeof ZAnalysisPatient>;

export const ZAnalysisStatus = z.enum(['queued', 'processing', 'completed', 'refused', 'failed']);
export type TAnalysisStatus = z.infer<typeof ZAnalysisStatus>;
export const TERMINAL_STATUSES: readonly TAnalysisStatus[] = ['completed', 'refused', 'failed'];

/** The one stage → status mapping: the follower's events and the client's live view both read it. */
export function statusOfStage(stage: TAnalysisStage): TAnalysisStatus {
  switch (stage) {
    case 'done':
      return 'completed';
    case 'refused':
    case 'failed':
    case 'queued':
      return stage;
    case 'checking':
    case 'analysing':
    case 'writing':
      return 'processing';
  }
}

/** What an upload answers at once (tRPC-style camelCase and the REST snake_case twin). */
export const ZUploadOutput = z.object({ chatId: z.uuid(), analysisId: z.uuid(), status: ZAnalysisStatus });
export type TUploadOutput = z.infer<typeof ZUploadOutput>;

export const ZAnalysisIdInput = z.object({ analysisId: z.string().max(100) });
export const ZChatIdInput = z.object({ chatId: z.string().max(100) });

export const ZProgressEvent = z.object({
  analysisId: z.uuid(),
  stage: z.enum(AnalysisStage),
  status: ZAnalysisStatus,
  /** Refused or failed: the reason to show (the same text as the analysis view's `error`). */
  message: z.string().optional(),
});
export type TProgressEvent = z.infer<typeof ZProgressEvent>;

/** A finding's call (contracts/finding-call.ts): 'possible' is flagged at the operating point below 50 %. */
export const ZFindingCall = z.enum(FINDING_CALLS);

/** One finding of a result. A 'positive' call below 50 % (stored before 'possible' existed) reads as 'possible'. */
export const ZFinding = z
  .object({
    label: z.string(),
    display: z.string(),
    probability: z.number(),
    threshold: z.number(),
    /** Set when a site threshold (issue 17) decided the call: the model's own default threshold. */
    modelThreshold: z.number().optional(),
    /** Issue 48: the probability from which a flag reads "Likely" (absent on older results: 50 %). */
    likelyThreshold: z.number().optional(),
    call: ZFindingCall,
    /**
     * 'pediatric': validated only in children; the finalizer withholds it unless the patient's age says child.
     * 'adult': validated only in adults; withheld when the age says child.
     */
    ageGroup: z.enum(['pediatric', 'adult']).optional(),
  })
  .transform((f) => ({ ...f, call: currentCall(f) }));
export type TFinding = z.output<typeof ZFinding>;

/**
 * SVG path data only (commands, numbers, separators). The viewer puts it in a `d` attribute;
 * anything else (markup, url(), script) is refused here before it can be stored.
 */
const ZPathData = z
  .string()
  .max(200_000)
  .regex(/^[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\-\s]*$/);

const ZFraction = z.number().min(0).max(1);
const ZFractionLine = z.tuple([ZFraction, ZFraction, ZFraction, ZFraction]);

/** Why a measured CTR cannot be trusted (worker/src/pipeline/check-ctr.ts); the server words each (anatomy-text.ts). */
export const CTR_UNRELIABLE_CODES = [
  'heart_at_inlet',
  'heart_below_bases',
  'lungs_small',
  'lungs_asymmetric',
  'lungs_retracted',
  'heart_oversized',
  'heart_too_wide',
  // Issue 42: a flagged basal opacity or effusion meets the heart border (the silhouette sign), so the border cannot be seen.
  'heart_border_obscured',
] as const;
export type TCtrUnreliableCode = (typeof CTR_UNRELIABLE_CODES)[number];

/**
 * What the anatomy stage found (model 2+; worker/src/pipeline/types.ts AnatomyResult). Contours
 * are outlines in a unit square (viewBox "0 0 1 1", preserveAspectRatio "none") over the film.
 */
export const ZAnatomy = z.object({
  /** Cardiothoracic ratio; null when it could not be measured (see flags) or its outlines are implausible (ctrUnreliable). */
  ctr: z.number().min(0).nullable(),
  /** The ratio as measured, also when flagged (absent on results of workers before the CTR checks). */
  ctrMeasured: z.number().min(0).nullish(),
  /** Why the measured ratio cannot be trusted (worker/src/pipeline/check-ctr.ts); null or absent when it can. */
  ctrUnreliable: z.object({ code: z.string().max(100), reason: z.string().max(300) }).nullish(),
  /** The usual upper reference value on an adult PA film. */
  ctrReference: z.number().min(0),
  /** The two widths of a trusted ratio [x0, y0, x1, y1], fractions of the film; absent on older results. */
  ctrLines: z.object({ heart: ZFractionLine, thorax: ZFractionLine }).nullish(),
  /** The lung-field box the classifier saw [x0, y0, x1, y1], fractions of the image; null = whole film. */
  lungBox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  contours: z.object({ lung: ZPathData, heart: ZPathData }),
  /** 'no_lung_field' (the whole film was classified), 'no_heart' (no CTR). */
  flags: z.array(z.string().max(100)).max(20),
});
export type TAnatomy = z.infer<typeof ZAnatomy>;

/** Why a candidate finding is "not assessed", in the report, the chat, the exports and the viewer. */
export const NOT_ASSESSED_REASON = 'this model version cannot back these findings on held-out data';

/** Why a finding validated only in children is "not assessed" for an adult or a patient of unknown age. */
export const PEDIATRIC_ONLY_REASON = 'validated only in children';
export const ADULT_ONLY_REASON = 'validated only in adults';

/**
 * A candidate finding this model version cannot back on held-out data, or (with `reason`) one it
 * does not assess for this patient (a pediatric-only finding for an adult): shown as "not assessed".
 */
export const ZNotAssessed = z.object({
  label: z.string().max(100),
  display: z.string().max(200),
  /** Absent: NOT_ASSESSED_REASON. */
  reason: z.string().max(300).optional(),
  /**
   * 'no_ctr' (model 4): a finding that needs the measured heart (manifest `requiresCtr`) on a film
   * without a plausible CTR; the server words the reason from the CTR's (anatomy-text.ts).
   */
  code: z.enum(['no_ctr']).optional(),
});
export type TNotAssessed = z.infer<typeof ZNotAssessed>;

/** The patient's lung zones of heatmapZones (image left is the patient's right on a frontal film). */
export const LUNG_ZONES = [
  'right_upper',
  'right_middle',
  'right_lower',
  'left_upper',
  'left_middle',
  'left_lower',
] as const;
export type TLungZone = (typeof LUNG_ZONES)[number];

/** One finding's heatmap mass inside the lung masks, as shares per zone (worker/src/pipeline/heatmap-zones.ts). */
export const ZHeatmapZones = z.object({
  label: z.string().max(100),
  zones: z.object(
    Object.fromEntries(LUNG_ZONES.map((k) => [k, z.number().min(0).max(1)])) as Record<TLungZone, z.ZodNumber>,
  ),
});
export type THeatmapZones = z.infer<typeof ZHeatmapZones>;

/** Model 4: the film's projection. The heart is magnified on AP films, so the 0.50 CTR reference holds for PA only. */
export const ZProjection = z.object({
  call: z.enum(['AP', 'PA']),
  /** The model's calibrated p(AP); null when the model has no projection output (the DICOM tag decided). */
  probabilityAP: z.number().min(0).max(1).nullable(),
  /** 'dicom': the film's ViewPosition, which wins when present; 'model': the projection output. */
  source: z.enum(['dicom', 'model']),
  /**
   * Issue 42: the DICOM ViewPosition says one projection and the model reads the other with p >= 0.8
   * (the CTR is then judged as on an AP film). Absent on older results (finding-text.ts
   * projectionDisagrees works it out from the figures).
   */
  disagrees: z.boolean().optional(),
});
export type TProjection = z.infer<typeof ZProjection>;

/** The external-validation figure quoted for a withdrawn output (metrics.json external.candidates[label]). */
export const ZExternalFigure = z.object({
  auc: z.number().nullable(),
  aucCi95: z.tuple([z.number(), z.number()]).nullable(),
  population: z.string().max(300).nullable(),
});

/**
 * Model 4: an output that is no longer a finding (manifest `withdrawn`): no probability, no call,
 * no urgency, no heatmap; a one-line note with its external figure, which the finalizer adds.
 */
export const ZWithdrawn = z.object({
  label: z.string().max(100),
  display: z.string().max(200),
  reason: z.literal('external'),
  /** Absent on the worker's result; null when metrics.json has no figure for it. */
  external: ZExternalFigure.nullish(),
});
export type TWithdrawn = z.infer<typeof ZWithdrawn>;

/** Why the image check refused a film. The worker sends the code; the server words it (refusal-text.ts). */
export const GATE_REFUSAL_CODES = ['undecodable', 'too_small', 'aspect_ratio', 'colour', 'blank', 'not_cxr'] as const;
export type TGateRefusalCode = (typeof GATE_REFUSAL_CODES)[number];

/** The image check's verdict as the worker hands it back: a code and the figure it quotes, no sentence. */
export const ZGateVerdict = z.object({
  accepted: z.boolean(),
  /** Null when accepted. */
  code: z.enum(GATE_REFUSAL_CODES).nullable(),
  /** e.g. 'inverted', 'low_contrast'; may be set on accepted images. */
  flags: z.array(z.string()),
  /** With 'too_small': the shortest side the model's checks require, in pixels. */
  minSide: z.number().int().positive().optional(),
});
export type TGateVerdict = z.infer<typeof ZGateVerdict>;

/** One finding's heatmap in a stored result: the map's size on the anatomy grid and its heat values. */
export const ZStoredHeatmap = z.object({
  label: z.string(),
  width: z.number(),
  height: z.number(),
  grid: ZHeatGrid.optional().catch(undefined),
});
export type TStoredHeatmap = z.infer<typeof ZStoredHeatmap>;

/** The stored structured result (the pipeline's AnalysisResult, heatmaps as small grids). */
export const ZStoredResult = z.object({
  modelVersion: z.string(),
  modelName: z.string(),
  gate: z.object({
    accepted: z.boolean(),
    reason: z.string().nullable(),
    flags: z.array(z.string()),
    code: z.string().nullish(),
  }),
  findings: z.array(ZFinding),
  /**
   * Model 2+; absent for model-1 results, null when refused or when the model has no anatomy
   * stage. A malformed one is dropped rather than failing the whole analysis: the findings stand
   * without it.
   */
  anatomy: ZAnatomy.nullish().catch(null),
  /** Model 2+: candidate findings that did not meet the shipping rule; absent for model-1 results. */
  notAssessed: z.array(ZNotAssessed).optional(),
  topFinding: z.string().nullable(),
  /**
   * The heatmaps kept: one per flagged finding (issue 42; before it, the top finding's only), the
   * drawn overlay's finding first. `grid` holds its heat values (contracts/heat-grid.ts); older
   * analyses have none.
   */
  heatmaps: z.array(ZStoredHeatmap).default([]),
  /** Model 2+ (issue 27): where each finding's heatmap mass lies in the lungs; absent in older analyses. */
  heatmapZones: z.array(ZHeatmapZones).max(100).optional().catch(undefined),
  /** Model 4 (or a DICOM ViewPosition): AP or PA; absent in older analyses, null when refused. */
  projection: ZProjection.nullish().catch(undefined),
  /** Model 4: outputs withdrawn from the findings, each with its external figure. */
  withdrawn: z.array(ZWithdrawn).max(50).optional(),
  image: z.object({ width: z.number(), height: z.number() }),
  timingsMs: z.record(z.string(), z.number()).default({}),
});
export type TStoredResult = z.infer<typeof ZStoredResult>;

/** The anatomy result as the worker hands it back: a flagged CTR as its code, no sentence. */
export const ZWorkerAnatomy = ZAnatomy.extend({
  ctrUnreliable: z.object({ code: z.enum(CTR_UNRELIABLE_CODES) }).nullish(),
});

/**
 * What the worker hands back on the result queue: the stored result with codes where the stored
 * one has sentences (the gate's verdict, a flagged CTR). The server's finalizer words them
 * (word-worker-result.ts) into the stored `gate.reason` and `anatomy.ctrUnreliable.reason`.
 */
export const ZWorkerResult = ZStoredResult.extend({
  gate: ZGateVerdict,
  anatomy: ZWorkerAnatomy.nullish().catch(null),
});
export type TWorkerResult = z.infer<typeof ZWorkerResult>;

export const ZAnalysisView = z.object({
  id: z.uuid(),
  chatId: z.uuid(),
  status: ZAnalysisStatus,
  stage: z.string(),
  modelVersion: z.string().nullable(),
  result: ZStoredResult.nullable(),
  heatmapUrl: z.string().nullable(),
  imageUrl: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type TAnalysisView = z.infer<typeof ZAnalysisView>;
