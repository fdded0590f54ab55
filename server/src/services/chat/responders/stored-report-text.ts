import type { TReport, TReportSections } from '@contracts/schemas/report.js';
import { draftSections } from '../../report/draft-sections.js';
import type { TResponderContext } from './responder.js';

/**
 * The report as the report panel stores it, in the chat's words (issue 41): once a radiologist
 * signs it (or edits the draft) the chat quotes their words, not the AI's draft, so the chat
 * never contradicts the report the hospital received.
 */

export const EDITED_LINE =
  'The radiologist signs it in the report panel beside the film; until it is signed this is a draft, not a report.';

const SECTION_KEYS = ['examination', 'comparison', 'findings', 'impression'] as const;

export const sectionsText = (s: TReportSections): string =>
  `**EXAMINATION**\n${s.examination}\n\n**COMPARISON**\n${s.comparison}\n\n**FINDINGS**\n${s.findings}\n\n**IMPRESSION**\n${s.impression}`;

/**
 * The stored report when it says something the AI's draft does not: signed (final or amended),
 * or a draft whose sections differ from the one drafted from the stored facts; else null.
 */
export function storedReportOf(ctx: TResponderContext): TReport | null {
  const { report, reportFacts } = ctx;
  if (!report) return null;
  if (report.status !== 'draft') return report;
  if (!reportFacts) return null;
  const drafted = draftSections(reportFacts);
  return SECTION_KEYS.some((k) => report.sections[k] !== drafted[k]) ? report : null;
}

/** '2026-11-29 at 03:10 UTC': the chat has no browser time zone, so it says UTC. */
function dateText(iso: string | null): string {
  return iso ? `${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC` : 'an unknown date';
}

const signature = (by: string | null, at: string | null): string =>
  `Signed by ${by ?? 'a former member'} on ${dateText(at)}`;

/** The header of a signed report's answer: what it is, who signed it and when. */
export function signedHeader(report: TReport, what: string): string {
  const status = report.status === 'amended' ? 'amended' : 'final';
  return `${what} of the signed report (${status}). ${signature(report.signedBy, report.signedAt)}.`;
}

/** The signed addenda, oldest first, each with its signer; '' when there are none. */
export function addendaText(report: TReport): string {
  if (!report.addenda.length) return '';
  const lines = report.addenda.map((a) => `- ${a.text} (${signature(a.signedBy, a.signedAt)})`);
  return `\n\n**ADDENDA**\n${lines.join('\n')}`;
}
