import { CONDITION_NOTES } from '../../../knowledge/cxr-conditions.js';
import { findingValueText } from '@contracts/finding-text.js';
import { isCalled } from '@contracts/finding-call.js';
import type { TFinding } from '@contracts/schemas/analysis.js';
import type { TReport } from '@contracts/schemas/report.js';
import type { TResponderContext } from './responder.js';
import { signedHeader } from './stored-report-text.js';

/**
 * What a signed report says, for the chat (issue 49 item 1): once a radiologist signs, the signed
 * sections and addenda are the study's words, and the AI's output is quoted only as the AI's,
 * before the report. Matching is by the knowledge notes' names for a finding, and a sentence is
 * quoted rather than interpreted, so "No pleural effusion." is never read as naming an effusion.
 */

/** The report when it is signed (final or amended); a draft, or none, is null. */
export function signedReportOf(ctx: Pick<TResponderContext, 'report'>): TReport | null {
  const r = ctx.report;
  return r && r.status !== 'draft' ? r : null;
}

/** The words the signed text may use for a finding: its note's aliases and display, and those of the questions it answers. */
function namesOf(label: string, display?: string): string[] {
  const own = CONDITION_NOTES[label];
  const standsFor = Object.values(CONDITION_NOTES).filter((n) => n.answersFor?.includes(label));
  return [
    ...new Set(
      [display, own?.name, ...(own?.aliases ?? []), ...standsFor.flatMap((n) => [n.name, ...n.aliases])]
        .filter((s): s is string => Boolean(s))
        .map((s) => s.toLowerCase()),
    ),
  ];
}

/** The signed text cut into sentences (numbered impression lines, findings sentences and each addendum's). */
function signedSentences(report: TReport): string[] {
  const texts = [report.sections.findings, report.sections.impression, ...report.addenda.map((a) => a.text)];
  return (
    texts
      // A sentence ends at a full stop after a word, not after a list number ("1. Pleural effusion.").
      .flatMap((t) => t.split(/\n+|(?<=[a-z)][.;!?])\s+/i))
      .map((s) => s.trim())
      .filter((s) => /[a-z]/i.test(s))
  );
}

const wordPattern = (w: string) => new RegExp(`(^|[^a-z])${w.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}`, 'i');

/** The signed sentences that name any of `names` (aliases), in the report's order; none: []. */
export function signedMentionsOf(report: TReport, names: string[]): string[] {
  const res = names.map(wordPattern);
  return signedSentences(report).filter((s) => res.some((re) => re.test(s)));
}

/** The signed sentences that name a finding of the result. */
export const findingMentions = (report: TReport, f: Pick<TFinding, 'label' | 'display'>): string[] =>
  signedMentionsOf(report, namesOf(f.label, f.display));

/**
 * Whether the signed text names the finding as present: a sentence names it and does not negate
 * it ("no", "not", "without", "resolved" …). A negated or absent mention is not present.
 */
export function signedAsPresent(report: TReport, f: Pick<TFinding, 'label' | 'display'>): boolean {
  const names = namesOf(f.label, f.display).map(wordPattern);
  return findingMentions(report, f).some((s) => {
    // Negated when a negating word comes before the name ("No pleural effusion"), not after it
    // ("Pleural effusion, not large" still names one); a word after it that undoes it counts too.
    const at = Math.min(...names.map((re) => s.search(re)).filter((i) => i >= 0));
    return !NEGATED_BEFORE.test(s.slice(0, at)) && !UNDONE_AFTER.test(s.slice(at));
  });
}

const NEGATED_BEFORE = /\b(no|not|without|negative for|free of|ruled out|excluded)\b/i;
const UNDONE_AFTER = /\b(resolved|absent|excluded|ruled out|has cleared|no longer)\b/i;

/** '> line' quotes, one a line. */
export const quoted = (lines: string[]): string => lines.map((l) => `> ${l}`).join('\n');

/** The signed report's header and its impression, quoted, with its addenda: the study's words. */
export function signedImpressionText(report: TReport): string {
  const addenda = report.addenda.length
    ? `\n\nAddenda:\n${report.addenda.map((a) => `- ${a.text} (${a.signedBy ?? 'a former member'})`).join('\n')}`
    : '';
  return `${signedHeader(report, 'The impression')}\n\n${quoted(report.sections.impression.split('\n'))}${addenda}`;
}

export const AI_BEFORE = "The AI's output, before the radiologist's report,";

/** 'Airspace opacity (71.8% Likely)' with, when the signed report does not name it as present, its status. */
export function aiFindingText(report: TReport, f: TFinding): string {
  const value = `${f.display} (${findingValueText(f)})`;
  if (!isCalled(f.call) || signedAsPresent(report, f)) return value;
  return `${value}, which the signed report does not name as present: superseded`;
}
