import type { TFinding } from '@contracts/schemas/analysis.js';
import type { TComparison } from '@contracts/schemas/timeline.js';

/**
 * The words of a comparison, shared by the report's section, the grounded chat and the PDF so
 * that every place says the same thing. Pure; every figure comes from the comparison.
 */

const pct = (p: number): string => `${(p * 100).toFixed(1)}%`;
const CALL: Record<TFinding['call'], string> = {
  positive: 'positive',
  possible: 'possible',
  negative: 'negative',
  uncertain: 'uncertain',
};

/**
 * '2026-03-12': the prior study's date: its stored DICOM StudyDate, else (a browser upload, or a
 * study that sent none) the day it was uploaded, as stored (UTC), the same on every server.
 */
export const priorDate = (c: TComparison): string => c.prior.studyDate ?? c.prior.createdAt.slice(0, 10);

/** 'Compared with the study of 2026-11-26', or, with no study date stored, the upload's date said as such. */
export const comparisonHeading = (c: TComparison): string =>
  c.prior.studyDate
    ? `Compared with the study of ${c.prior.studyDate}`
    : `Compared with the study uploaded on ${priorDate(c)} (no study date recorded)`;

/** 'CTR 0.48 → 0.52 (+0.04)', or null when one of the films has none. */
export function ctrChangeText(c: TComparison): string | null {
  if (!c.ctr) return null;
  const sign = c.ctr.change > 0 ? '+' : c.ctr.change < 0 ? '−' : '±';
  return `Cardiothoracic ratio ${c.ctr.previous.toFixed(2)} → ${c.ctr.current.toFixed(2)} (${sign}${Math.abs(c.ctr.change).toFixed(2)})`;
}

export const RULE_TEXT =
  '"New", "resolved", "higher" and "lower" are said only when the probability moved by more than the finding\'s measured test-retest spread ' +
  '(how far the same film moves when re-encoded, flipped or re-windowed); "new" and "resolved" when the call also changed between flagged and not flagged. ' +
  'A smaller move is "unchanged", even where it crosses the threshold: the model cannot tell it from its own noise.';

/** The rule the changes were named by, or (issue 47) why none is named. */
export const ruleText = (c: TComparison): string => c.notCalled ?? RULE_TEXT;

/** ' (within ±4.0 points, the measured test-retest spread)' for an unchanged finding with a spread, else ''. */
const withinText = (f: TComparison['findings'][number]): string =>
  f.change === 'unchanged' && f.spread != null
    ? ` (within ±${(f.spread * 100).toFixed(1)} points, the measured test-retest spread)`
    : '';

/** The markdown lines of the report's comparison section (heading included). */
export function comparisonLines(c: TComparison): string[] {
  const lines = [`### ${comparisonHeading(c)}`, ''];
  if (c.findings.length) {
    lines.push('| Finding | Previous | Now | Change |', '|---|---|---|---|');
    for (const f of c.findings) {
      lines.push(
        `| ${f.display} | ${pct(f.previous.probability)} (${CALL[f.previous.call]}) | ${pct(f.current.probability)} (${CALL[f.current.call]}) | ${f.change}${withinText(f)} |`,
      );
    }
    lines.push('');
  } else {
    lines.push('The two model versions report no finding in common, so no finding is compared.', '');
  }
  const ctr = ctrChangeText(c);
  const notes = [
    ...(ctr ? [`${ctr}.`] : []),
    ...c.notCompared.map(
      (n) =>
        `${n.display}: not compared (only the ${n.reportedBy === 'current' ? 'current' : 'earlier'} model version reports it).`,
    ),
    ...c.caveats,
    ruleText(c),
  ];
  lines.push(...notes.map((s) => `- ${s}`), '');
  return lines;
}

/** One sentence per changed finding, for the chat: 'Pneumonia / lung opacity: new (12.0% → 80.0%).' */
export function changeSentences(c: TComparison): string[] {
  return c.findings.map(
    (f) =>
      `${f.display}: **${f.change}** (${pct(f.previous.probability)} ${CALL[f.previous.call]} → ${pct(f.current.probability)} ${CALL[f.current.call]})${withinText(f)}`,
  );
}
