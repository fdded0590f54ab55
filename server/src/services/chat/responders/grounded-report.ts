import { isCalled } from '@contracts/finding-call.js';
import { impressionLead, LOW_CONFIDENCE } from '@contracts/finding-story.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import { draftSections, impressionItem, impressionSection } from '../../report/draft-sections.js';
import { findingPhrase, impressionOrder, likelyInOrder } from '../../report/finding-phrase.js';
import { bullets, closing } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';
import { addendaText, EDITED_LINE, sectionsText, signedHeader, storedReportOf } from './stored-report-text.js';

/**
 * The reading room's report questions (issue 41): the impression, the most important finding and
 * the whole draft, quoted from the report's own drafting (report/draft-sections.ts) so the chat,
 * the report panel and the exports never word a finding two ways. Once the report is signed, or
 * its draft edited, the impression and the report are the radiologist's words instead.
 */

export const SIGN_LINE =
  "The radiologist edits and signs the report in the report panel beside the film; until it is signed this is the AI's draft, not a report.";

/** Why there is no draft for a result the quality gate refused, or null when there is one. */
function noDraftReason(result: TStoredResult): string | null {
  return result.gate.accepted
    ? null
    : 'There is no drafted report for this analysis: the film did not pass the quality gate, so the model reported nothing to draft from.';
}

export function impressionAnswer(ctx: TResponderContext): string {
  const none = noDraftReason(ctx.result);
  if (none) return `${none}${closing}`;
  const stored = storedReportOf(ctx);
  if (stored?.status === 'draft')
    return `The draft in the report panel has been edited; its impression as edited:\n\n${stored.sections.impression}\n\n${EDITED_LINE}${closing}`;
  if (stored)
    return `${signedHeader(stored, 'The impression')}\n\n${stored.sections.impression}${addendaText(stored)}${closing}`;
  return `The impression of the drafted report, most important first:\n\n${impressionSection(ctx.result)}\n\n${SIGN_LINE}${closing}`;
}

/**
 * The first line of the drafted impression (issue 48: only findings called "Likely", most important
 * first) with its figures; the other likely findings and the low-confidence ("Possible") flags after
 * it; with no likely finding, that the impression names none; else "No finding flagged".
 */
export function topFindingAnswer(ctx: TResponderContext): string {
  const { result } = ctx;
  const none = noDraftReason(result);
  if (none) return `${none}${closing}`;
  const [first, ...rest] = likelyInOrder(result.findings, SUMMARY_LABEL);
  const low = impressionOrder(result.findings, SUMMARY_LABEL).filter(
    (f) => f.label !== SUMMARY_LABEL && isCalled(f.call) && f.call !== 'positive',
  );
  const lowText = low.length
    ? `\n\n${LOW_CONFIDENCE} (kept out of the impression):\n${bullets(low.map((f) => findingPhrase(f, result)))}`
    : '';
  if (!first) {
    if (!low.length) return `${impressionLead(result.findings)}${closing}`;
    return `No finding is called Likely, so the drafted impression names none: "${impressionSection(result)}"${lowText}${closing}`;
  }
  const also = rest.length
    ? `\n\nAlso likely, in the impression's order:\n${bullets(rest.map((f) => findingPhrase(f, result)))}`
    : '';
  return (
    // The draft's own words first (its side where the map backs it), so the chat quotes the line it names.
    `The most important finding, the first line of the drafted impression: **${impressionItem(first, result)}**; ` +
    `the AI's figures: ${findingPhrase(first, result)}.\n\n` +
    `A flag is a screening signal for the clinician to confirm, not a diagnosis.${also}${lowText}${closing}`
  );
}

export function draftReportAnswer(ctx: TResponderContext): string {
  const none = noDraftReason(ctx.result);
  if (none) return `${none}${closing}`;
  if (!ctx.reportFacts)
    return `The drafted report of this analysis is not available in this chat; open the report panel beside the film to read it.${closing}`;
  const stored = storedReportOf(ctx);
  if (stored?.status === 'draft')
    return `The draft in the report panel has been edited; as edited:\n\n${sectionsText(stored.sections)}\n\n${EDITED_LINE}${closing}`;
  if (stored)
    return `${signedHeader(stored, 'The text')}\n\n${sectionsText(stored.sections)}${addendaText(stored)}${closing}`;
  return (
    'The drafted report, written from the stored result only:\n\n' +
    `${sectionsText(draftSections(ctx.reportFacts))}\n\n${SIGN_LINE}${closing}`
  );
}
