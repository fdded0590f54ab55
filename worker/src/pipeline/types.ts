import type { TFindingCall } from '@contracts/finding-call.js';
import type {
  TCtrUnreliableCode,
  TGateRefusalCode,
  TGateVerdict,
  TLungZone,
  TProjection,
} from '@contracts/schemas/analysis.js';

/**
 * The analysis result contract (other packages code against these names) and the model
 * manifest format that lets any ONNX classifier be dropped in through MODEL_DIR.
 */

/** 'possible': flagged at the operating point below 50 % (contracts/finding-call.ts). */
export type FindingCall = TFindingCall;

export interface FindingResult {
  label: string;
  display: string;
  probability: number;
  threshold: number;
  /** Issue 48: the manifest's "Likely" point, when it names one (the call reads 'possible' below it). */
  likelyThreshold?: number;
  call: FindingCall;
  /** 'pediatric': validated only in children (the manifest's ageGroup); the server decides by the patient's age. */
  ageGroup?: 'pediatric' | 'adult';
}

/**
 * The image check's verdict: accepted, or refused with a code ('colour', 'not_cxr', …). The worker
 * never words it: the server's report text turns the code into the sentence (refusal-text.ts).
 */
export type GateVerdict = TGateVerdict;

export type GateReasonCode = TGateRefusalCode;

/** A film as 8-bit luma, one byte a pixel, at the stored image's size. */
export interface GrayFilm {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface Heatmap {
  label: string;
  width: number;
  height: number;
  /** Row-major, values 0..1. */
  data: Float32Array | number[];
}

/** What the anatomy stage found (model 2+). Coordinates are fractions of the image (0..1). */
export interface AnatomyResult {
  /**
   * Cardiothoracic ratio (maximal horizontal heart width / maximal inner thoracic width); null when
   * not measurable: no outline (flags) or implausible outlines (ctrUnreliable).
   */
  ctr: number | null;
  /** The ratio as measured on the masks, also when the checks flagged it (null: no outline). */
  ctrMeasured: number | null;
  /** Why the measured ratio cannot be trusted (check-ctr.ts); null when it can. */
  ctrUnreliable: CtrUnreliable | null;
  /** The usual upper reference value for an adult PA film (0.5). */
  ctrReference: number;
  /** The two widths of a trusted ratio as lines [x0, y0, x1, y1] in fractions of the film (anatomy.ts ctrWidthLines). */
  ctrLines?: { heart: [number, number, number, number]; thorax: [number, number, number, number] } | null;
  /** Lung-field box with margin that the classifier saw [x0, y0, x1, y1]; null = the whole film was classified. */
  lungBox: [number, number, number, number] | null;
  /** SVG path data of the outlines in a unit square (viewBox "0 0 1 1", preserveAspectRatio "none"). */
  contours: { lung: string; heart: string };
  /** 'no_lung_field' (classified the whole film), 'no_heart' (no CTR). */
  flags: string[];
}

/** A candidate finding the model cannot back on held-out data: reported as "not assessed". */
export interface NotAssessed {
  label: string;
  display: string;
  /** 'no_ctr': a finding that needs the measured heart (requiresCtr) on a film without a plausible CTR. */
  code?: 'no_ctr';
}

/** The film's projection (model 4, or a DICOM ViewPosition): 'dicom' wins over the model's output. */
export type ProjectionResult = TProjection;

/** An output withdrawn from the findings (model 4 manifest `withdrawn`): named with a note, never called. */
export interface Withdrawn {
  label: string;
  display: string;
  reason: 'external';
}

export interface AnalysisResult {
  modelVersion: string;
  modelName: string;
  gate: GateVerdict;
  findings: FindingResult[];
  /** Model 2+: anatomy stage output; null when refused or when the model has no anatomy stage. */
  anatomy?: AnatomyResult | null;
  /** Model 2+: candidate findings that did not meet the shipping rule. */
  notAssessed?: NotAssessed[];
  topFinding: string | null;
  /** AP or PA when the model has a projection output or the film's DICOM ViewPosition said; null when refused. */
  projection?: ProjectionResult | null;
  /** Model 4: outputs withdrawn from the findings (accepted films only). */
  withdrawn?: Withdrawn[];
  heatmaps: Heatmap[];
  /** Model 2+: each map's mass per lung zone (heatmap-zones.ts). */
  heatmapZones?: HeatmapZones[];
  image: { width: number; height: number };
  timingsMs: Record<string, number>;
}

// ---------------------------------------------------------------- manifest

export type Activation = 'softmax' | 'sigmoid';

export interface ManifestInput {
  name: string;
  layout: 'NCHW';
  channels: 1 | 3;
  height: number;
  width: number;
  /** 'gray-bt601' (1 channel) or 'rgb' (3 channels, gray images replicated). */
  colour?: 'gray-bt601' | 'rgb';
  /** Only 'area-stretch' (box filter, aspect ratio not kept) is implemented. */
  resize?: 'area-stretch';
  /** 'lung-box': the classifier sees the film cropped to the anatomy stage's lung-field box; 'centre': the whole film's centred square (issue 47). */
  crop?: 'lung-box' | 'centre';
  scale: number;
  mean: number[];
  std: number[];
}

export interface ManifestHead {
  name: string;
  output: string;
  activation: Activation;
  labels: string[];
  /** One temperature for the head, or one per label (per-label Platt scaling of sigmoid heads). */
  temperature?: number | number[];
  bias?: number[];
  /** Probabilities of this head are conditional on another head's label (joint = product). */
  conditionalOn?: { head: string; label: string };
}

export interface ManifestFinding {
  label: string;
  display?: string;
  source: { head: string; label?: string; complementOf?: string };
  threshold?: number;
  /** Issue 48: the calibrated probability from which a flag reads "Likely" (absent: 50 %). */
  likelyThreshold?: number;
  /** Name of a channel of the CAM output. */
  heatmap?: string;
  /** A summary score (e.g. abnormal) that is never the top finding. */
  summary?: boolean;
  /** Joint probability: multiplied by this head label's probability (e.g. viral = p(pneumonia) x p(viral | pneumonia)). */
  conditionalOn?: { head: string; label: string };
  /**
   * Combine the calibrated probability with the anatomy stage's CTR when one was measured:
   * p = sigmoid(logitWeight * logit(p) + ctrWeight * ctr + apWeight * (AP ? 1 : 0) + bias).
   */
  ctrCombine?: { logitWeight: number; ctrWeight: number; apWeight?: number; bias: number };
  /** With ctrCombine: the threshold of the classifier alone, used when the CTR is missing or flagged. */
  thresholdWithoutCtr?: number;
  /** With ctrCombine: no call at all without a plausible CTR (reported as not measurable). */
  requiresCtr?: boolean;
  /** 'pediatric': validated only in children; the server withholds it unless the patient's age says child. */
  ageGroup?: 'pediatric' | 'adult';
}

export interface ManifestAnatomy {
  /** ONNX file of the segmentation net (and the gate head, when gate.model is 'anatomy'). */
  file: string;
  sha256: string;
  input: ManifestInput;
  masks: { output: string; channels: ['lung', 'heart'] };
  /** Margin added on every side of the lung box, as a fraction of its width / height. */
  boxMargin: number;
  /** Below this fraction of lung pixels there is no usable lung field (flag 'no_lung_field'). */
  minLungFraction: number;
  /** Below this many heart pixels (on the mask grid) no CTR is given (flag 'no_heart'). */
  minHeartPixels: number;
  ctrReference: number;
  /** Thresholds of the CTR plausibility checks (check-ctr.ts), each defaulting to DEFAULT_CTR_CHECKS. */
  ctrChecks?: Partial<CtrChecks>;
}

export interface ManifestGate {
  output: string;
  activation: Activation;
  labels: string[];
  acceptLabel: string;
  rejectLabel: string;
  rejectThreshold: number;
  invertedLabel?: string;
  checks?: Partial<GateChecks>;
  /** Which ONNX file has the gate output: the classifier's (default) or the anatomy stage's. */
  model?: 'classifier' | 'anatomy';
}

export interface GateChecks {
  minSide: number;
  maxAspect: number;
  chromaLevel: number;
  maxColourFraction: number;
  blankStd: number;
  lowContrastStd: number;
}

/** Model 4: the AP/PA output (contracts/model/manifest.ts ZManifestProjection). */
export interface ManifestProjection {
  model: 'classifier' | 'anatomy';
  /** A [N, 1] logit output of that ONNX file. */
  output: string;
  temperature: number;
  bias: number;
  /** AP at p(AP) >= threshold. */
  threshold: number;
}

export interface ModelManifest {
  schemaVersion: number;
  modelName: string;
  modelVersion: string;
  file: string;
  sha256: string;
  trainingData?: string;
  input: ManifestInput;
  heads: ManifestHead[];
  cams?: { output: string; channels: string[] };
  uncertainMargin?: number;
  findings?: ManifestFinding[];
  /** Candidate findings that did not ship (shown as "not assessed"). */
  notAssessed?: NotAssessed[];
  gate?: ManifestGate;
  /** Model 2+: the segmentation stage that runs before the classifier. */
  anatomy?: ManifestAnatomy;
  projection?: ManifestProjection;
  /** Model 4: outputs that are no longer findings. */
  withdrawn?: Withdrawn[];
}

/** A manifest after validation, with defaults filled in. */
export interface LoadedModel {
  dir: string;
  modelPath: string;
  /** Absolute path of the anatomy stage's ONNX file (model 2+). */
  anatomyPath?: string;
  manifest: ModelManifest;
  findings: ResolvedFinding[];
  checks: GateChecks;
}

export interface ResolvedFinding extends ManifestFinding {
  display: string;
  threshold: number;
}

/** Thresholds of the CTR checks (check-ctr.ts; manifest `anatomy.ctrChecks`); every one is optional there. */
export interface CtrChecks {
  /** The heart's top row must lie at least this fraction of the lung height below the lung apices. */
  minHeartTop: number;
  /** The heart's bottom row may lie at most this fraction of the lung height below the lung bases. */
  maxHeartBelowBases: number;
  /** Lung pixels as a fraction of the whole grid. */
  minLungArea: number;
  /** Smaller / larger lung field (split at the middle of the lung fields' width). */
  minLungSymmetry: number;
  /** Lung pixels as a fraction of the lung fields' bounding box: low when the outlines retract. */
  minLungFill: number;
  /** Heart pixels / lung pixels. */
  maxHeartToLung: number;
  /** The ratio itself. */
  maxCtr: number;
}

export type CtrUnreliableCode = TCtrUnreliableCode;

/** Why a measured ratio cannot be trusted; the server words the code (anatomy-text.ts). */
export interface CtrUnreliable {
  code: CtrUnreliableCode;
}

export interface HeatmapZones {
  label: string;
  /** Share (0..1, three decimals) of the map's mass inside the lung mask that lies in each zone. */
  zones: Record<TLungZone, number>;
}

/** Records a stage's time since `since` under `stage` and returns now (the result's timingsMs). */
export type Lap = (stage: string, since: number) => number;
