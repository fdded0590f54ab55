import { readManifestSummary } from '../../knowledge/read-manifest-summary.js';

/**
 * Which model ships (MODEL_DIR/manifest.json): the worker refuses to load an ONNX file whose
 * sha256 differs from the manifest's, so the manifest's sha256 names the exact weights that
 * produce new results. Site thresholds are pinned to it.
 */
export interface TModelIdentity {
  modelVersion: string;
  sha256: string;
  uncertainMargin?: number;
  findings: {
    label: string;
    display: string;
    threshold: number;
    summary?: boolean;
    /** 'pediatric' or 'adult' when the finding is reported for one age group only. */
    ageGroup?: string;
    /** A hint read only beside another finding (the pediatric bacterial/viral hints). */
    conditional?: boolean;
  }[];
}

/**
 * The shipped model; null when the manifest cannot be read or names no version or sha256. A
 * finding without a display name or threshold gets the worker's defaults (the label, 0.5:
 * worker/src/pipeline/load-model.ts), so the site tools see the thresholds the worker calls at.
 */
export function readModelIdentity(modelDir: string): TModelIdentity | null {
  const m = readManifestSummary(modelDir);
  if (!m?.modelVersion || !m.sha256) return null;
  return {
    modelVersion: m.modelVersion,
    sha256: m.sha256,
    ...(m.uncertainMargin === null ? {} : { uncertainMargin: m.uncertainMargin }),
    findings: m.findings.map((f) => ({
      label: f.label,
      display: f.display ?? f.label,
      threshold: f.threshold ?? 0.5,
      ...(f.summary === null ? {} : { summary: f.summary }),
      ...(f.ageGroup === null ? {} : { ageGroup: f.ageGroup }),
      ...(f.conditionalOn === null ? {} : { conditional: true }),
    })),
  };
}
