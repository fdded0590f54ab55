import { isCalled } from '@contracts/finding-call.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import type { TComparison, TFindingChange } from '@contracts/schemas/timeline.js';

/** One completed analysis, as the comparison needs it. */
export interface TAnalysisSnapshot {
  analysisId: string;
  chatId: string;
  createdAt: Date;
  result: TStoredResult;
}

// Keeps logit() finite for probabilities stored as exactly 0 or 1.
const EPS = 1e-6;
const logit = (p: number): number => {
  const q = Math.min(1 - EPS, Math.max(EPS, p));
  return Math.log(q / (1 - q));
};

/** How far a probability sits above (+) or below (-) its own threshold, in log-odds. */
export const distanceFromThreshold = (f: Pick<TFinding, 'probability' | 'threshold'>): number =>
  logit(f.probability) - logit(f.threshold);

/**
 * The change rule (docs/patient-timeline.md). `margin` is the manifest's `uncertainMargin`: the
 * half-width, in log-odds around the threshold, of the band in which the model calls a finding
 * "uncertain" (worker/src/pipeline/compose.ts callOf). The comparison reuses that band:
 *
 * - new: negative before, positive now (the probability crossed the whole band upwards);
 * - resolved: positive before, negative now (crossed it downwards);
 * - otherwise the move of the probability relative to its threshold, in log-odds: smaller than
 *   the margin is "unchanged" (the model itself treats that much as too close to call),
 *   else "higher" or "lower". A small step across an edge of the band (negative to uncertain,
 *   uncertain to positive) is therefore unchanged.
 *
 * The move is measured from each result's own threshold, so two model versions with different
 * thresholds compare by where each probability stood against its own cut-off; the caveats then
 * say that the version changed.
 */
export function changeOf(previous: TFinding, current: TFinding, margin: number): TFindingChange {
  if (previous.call === 'negative' && isCalled(current.call)) return 'new';
  if (isCalled(previous.call) && current.call === 'negative') return 'resolved';
  const move = distanceFromThreshold(current) - distanceFromThreshold(previous);
  if (move === 0 || Math.abs(move) < margin) return 'unchanged';
  return move > 0 ? 'higher' : 'lower';
}

const QUALITY_WORDS: Record<string, string> = {
  inverted: 'inverted film',
  low_contrast: 'low contrast',
  no_lung_field: 'no usable lung field',
  no_heart: 'heart outline not found',
};
const qualityFlags = (r: TStoredResult): string[] =>
  [...new Set([...r.gate.flags, ...(r.anatomy?.flags ?? [])])].sort();
const flagText = (flags: string[]): string =>
  flags.length ? flags.map((f) => QUALITY_WORDS[f] ?? f.replace(/_/g, ' ')).join(', ') : 'no flags';

/** Why the two results may not be comparable, from what they record. */
function caveatsOf(previous: TStoredResult, current: TStoredResult, ctrCompared: boolean): string[] {
  const out: string[] = [];
  if (previous.modelVersion !== current.modelVersion) {
    out.push(
      `The model version changed between the two analyses (${previous.modelVersion} then ${current.modelVersion}): ` +
        "each probability is compared by its distance from its own version's threshold, and the two versions may not score the same film alike.",
    );
  }
  const before = qualityFlags(previous);
  const now = qualityFlags(current);
  if (before.join() !== now.join()) {
    out.push(
      `The automatic image checks differ (earlier film: ${flagText(before)}; this film: ${flagText(now)}): part of a change may come from the image rather than the patient.`,
    );
  }
  if (ctrCompared) {
    out.push(
      'The projection (PA or AP) is not recorded with either result: a different projection, rotation or inspiration changes the cardiothoracic ratio without any change in heart size.',
    );
  }
  return out;
}

/**
 * The current analysis compared with the prior one: every shipped finding both results report,
 * the CTR when both films have one, and the caveats. Pure: same input, same comparison.
 */
export function compareResults(prior: TAnalysisSnapshot, current: TStoredResult, margin: number): TComparison {
  const before = new Map(prior.result.findings.map((f) => [f.label, f]));
  const nowLabels = new Set(current.findings.map((f) => f.label));
  const findings: TComparison['findings'] = [];
  const notCompared: TComparison['notCompared'] = [];
  for (const f of current.findings) {
    const p = before.get(f.label);
    if (!p) {
      notCompared.push({ label: f.label, display: f.display, reportedBy: 'current' });
      continue;
    }
    findings.push({
      label: f.label,
      display: f.display,
      previous: { probability: p.probability, threshold: p.threshold, call: p.call },
      current: { probability: f.probability, threshold: f.threshold, call: f.call },
      change: changeOf(p, f, margin),
    });
  }
  for (const p of prior.result.findings) {
    if (!nowLabels.has(p.label)) notCompared.push({ label: p.label, display: p.display, reportedBy: 'previous' });
  }
  const a = prior.result.anatomy?.ctr ?? null;
  const b = current.anatomy?.ctr ?? null;
  const ctr = a !== null && b !== null ? { previous: a, current: b, change: b - a } : null;
  return {
    prior: { analysisId: prior.analysisId, chatId: prior.chatId, createdAt: prior.createdAt.toISOString() },
    modelVersions: { previous: prior.result.modelVersion, current: current.modelVersion },
    findings,
    notCompared,
    ctr,
    caveats: caveatsOf(prior.result, current, ctr !== null),
  };
}
