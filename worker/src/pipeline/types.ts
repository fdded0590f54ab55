/**
 * The analysis result contract (other packages code against these names) and the model
 * manifest format that lets any ONNX classifier be dropped in through MODEL_DIR.
 */

export type FindingCall = 'positive' | 'negative' | 'uncertain';

export interface FindingResult {
  label: string;
  display: string;
  probability: number;
  threshold: number;
  call: FindingCall;
}

export interface GateVerdict {
  accepted: boolean;
  /** Human-readable reason when refused, e.g. 'The image appears to be a colour photograph…'. */
  reason: string | null;
  /** e.g. 'inverted', 'low_contrast'; may be set on accepted images. */
  flags: string[];
  /** Machine code of the refusal ('colour', 'not_cxr', …); null when accepted. */
  code?: GateReasonCode | null;
}

export type GateReasonCode = 'undecodable' | 'too_small' | 'aspect_ratio' | 'colour' | 'blank' | 'not_cxr';

export interface Heatmap {
  label: string;
  width: number;
  height: number;
  /** Row-major, values 0..1. */
  data: Float32Array | number[];
}

export interface AnalysisResult {
  modelVersion: string;
  modelName: string;
  gate: GateVerdict;
  findings: FindingResult[];
  topFinding: string | null;
  heatmaps: Heatmap[];
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
  scale: number;
  mean: number[];
  std: number[];
}

export interface ManifestHead {
  name: string;
  output: string;
  activation: Activation;
  labels: string[];
  temperature?: number;
  bias?: number[];
  /** Probabilities of this head are conditional on another head's label (joint = product). */
  conditionalOn?: { head: string; label: string };
}

export interface ManifestFinding {
  label: string;
  display?: string;
  source: { head: string; label?: string; complementOf?: string };
  threshold?: number;
  /** Name of a channel of the CAM output. */
  heatmap?: string;
  /** A summary score (e.g. abnormal) that is never the top finding. */
  summary?: boolean;
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
}

export interface GateChecks {
  minSide: number;
  maxAspect: number;
  chromaLevel: number;
  maxColourFraction: number;
  blankStd: number;
  lowContrastStd: number;
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
  gate?: ManifestGate;
}

/** A manifest after validation, with defaults filled in. */
export interface LoadedModel {
  dir: string;
  modelPath: string;
  manifest: ModelManifest;
  findings: ResolvedFinding[];
  checks: GateChecks;
}

export interface ResolvedFinding extends ManifestFinding {
  display: string;
  threshold: number;
}
