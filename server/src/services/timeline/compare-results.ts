import { isCalled } from '@contracts/finding-call.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import type { TComparison, TFindingChange } from '@contracts/schemas/timeline.js';

/** One completed analysis, as the comparison needs it. */
export interface TAnalysisSnapshot {
  analysisId: string;
  chatId: string;
  createdAt: Date;
  /** The DICOM StudyDate as YYYY-MM-DD; null for a browser upload (or a study that sent none). */
  studyDate?: string | null;
  /** The registry model that made it (null: before the registry, the shipped model). */
  modelId?: string | null;
  result: TStoredResult;
}

/**
 * What a change must exceed to be named: per finding, its measured test-retest spread in
 * probability (models/cxr/test-retest.json, scripts/measure-test-retest.ts); for a finding the
 * file does not measure, the older rule's band in log-odds (the manifest's changeMargin).
 */
export interface TChangeRule {
  margin: number;
  spreads: Readonly<Record<string, number>>;
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
 * The change rule (docs/patient-timeline.md, issue 49). With a measured test-retest `spread` for
 * the finding (the largest move the same film makes when re-encoded, flipped or re-windowed, 95th
 * percentile): a move of the probability no larger than it is "unchanged", whatever the calls say
 * (8.6 % to 7.2 % across a threshold is the model's noise, not a resolution); beyond it, "new" or
 * "resolved" when the call also changed between flagged and not flagged, else "higher" or "lower".
 *
 * Without a spread (a finding the file does not measure, or no file), the older rule in log-odds
 * from each result's own threshold: a call from negative to flagged is new (and back, resolved);
 * otherwise a move smaller than `margin` is unchanged, a larger one higher or lower.
 */
export function changeOf(previous: TFinding, current: TFinding, margin: number, spread?: number): TFindingChange {
  const flagged = isCalled(current.call);
  const wasFlagged = isCalled(previous.call);
  if (spread !== undefined) {
    const move = current.probability - previous.probability;
    if (Math.abs(move) <= spread) return 'unchanged';
    if (flagged !== wasFlagged) return flagged ? 'new' : 'resolved';
    return move > 0 ? 'higher' : 'lower';
  }
  if (previous.call === 'negative' && flagged) return 'new';
  if (wasFlagged && current.call === 'negative') return 'resolved';
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
function caveatsOf(previous: TStoredResult, current: TStoredResult, ctrCompared: boolean, called: boolean): string[] {
  const out: string[] = [];
  // Without a called change, notCalled says why; this caveat would describe a rule not applied.
  if (called && previous.modelVersion !== current.modelVersion) {
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
 * the CTR when both films have one, and the caveats. Pure: same input, same comparison. With
 * `{ notCalled }` (services/models/read-model-facts.ts says when) the readings are shown side by
 * side and no change is named.
 */
export function compareResults(
  prior: TAnalysisSnapshot,
  current: TStoredResult,
  how: TChangeRule | { notCalled: string },
): TComparison {
  const rule = 'notCalled' in how ? null : how;
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
    const spread = rule?.spreads[f.label];
    findings.push({
      label: f.label,
      display: f.display,
      previous: { probability: p.probability, threshold: p.threshold, call: p.call },
      current: { probability: f.probability, threshold: f.threshold, call: f.call },
      change: rule ? changeOf(p, f, rule.margin, spread) : 'not called',
      spread: spread ?? null,
    });
  }
  for (const p of prior.result.findings) {
    if (!nowLabels.has(p.label)) notCompared.push({ label: p.label, display: p.display, reportedBy: 'previous' });
  }
  const a = prior.result.anatomy?.ctr ?? null;
  const b = current.anatomy?.ctr ?? null;
  const ctr = a !== null && b !== null ? { previous: a, current: b, change: b - a } : null;
  return {
    prior: {
      analysisId: prior.analysisId,
      chatId: prior.chatId,
      createdAt: prior.createdAt.toISOString(),
      studyDate: prior.studyDate ?? null,
    },
    modelVersions: { previous: prior.result.modelVersion, current: current.modelVersion },
    findings,
    notCompared,
    ctr,
    caveats: caveatsOf(prior.result, current, ctr !== null, rule !== null),
    notCalled: 'notCalled' in how ? how.notCalled : null,
  };
}
