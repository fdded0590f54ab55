import type { TDb } from '../../db/client.js';
import { callAt, isCalled } from '@contracts/finding-call.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import { ZFindingCalibration } from '@contracts/schemas/site.js';
import { appliedCalibrationRow } from './get-calibration.js';
import { readModelIdentity, type TModelIdentity } from './read-model-identity.js';

/** The worker's call rule, the one in contracts/finding-call.ts (tests/site pin the two to the same answers). */
export function callOf(p: number, threshold: number, margin: number, likelyThreshold?: number): TFinding['call'] {
  return callAt(p, threshold, margin, likelyThreshold);
}

/** Re-decides the calls of a result at the site's thresholds; pure. */
export function withSiteThresholds(
  result: TStoredResult,
  model: TModelIdentity,
  thresholds: ReadonlyMap<string, number>,
): TStoredResult {
  const margin = model.uncertainMargin ?? 0;
  const findings = result.findings.map((f) => {
    const site = thresholds.get(f.label);
    if (site === undefined) return f;
    return {
      ...f,
      threshold: site,
      modelThreshold: f.threshold,
      call: callOf(f.probability, site, margin, f.likelyThreshold),
    };
  });
  // As the worker picks it: the most probable called finding that is not a summary label.
  const summary = new Set(model.findings.filter((f) => f.summary).map((f) => f.label));
  let top: TFinding | null = null;
  for (const f of findings)
    if (!summary.has(f.label) && isCalled(f.call) && (!top || f.probability > top.probability)) top = f;
  return { ...result, findings, topFinding: top?.label ?? null };
}

/**
 * The result the finalizer stores: with the site's applied thresholds when they were made for
 * the model that produced it (same sha256 as the shipped manifest and the same version as the
 * result), else unchanged. A calibration for another model is ignored (the Site tab warns).
 */
export async function applySiteThresholds(opts: {
  db: TDb;
  modelDir: string;
  result: TStoredResult;
}): Promise<TStoredResult> {
  const { result } = opts;
  if (!result.gate.accepted || result.findings.length === 0) return result;
  const row = await appliedCalibrationRow({ db: opts.db });
  const model = readModelIdentity(opts.modelDir);

  if (!row || !model || row.modelSha256 !== model.sha256 || result.modelVersion !== model.modelVersion) return result;
  const thresholds = new Map<string, number>();
  for (const e of row.findings) {
    const parsed = ZFindingCalibration.safeParse(e);
    if (parsed.success) thresholds.set(parsed.data.finding, parsed.data.threshold);
  }
  return thresholds.size ? withSiteThresholds(result, model, thresholds) : result;
}
