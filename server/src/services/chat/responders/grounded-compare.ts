import type { TReport } from '@contracts/schemas/report.js';
import {
  changeSentences,
  comparisonHeading,
  ctrChangeText,
  priorDate,
  ruleText,
} from '../../timeline/comparison-text.js';
import { bullets, closing } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';
import { AI_BEFORE, quoted, signedReportOf } from './signed-report-facts.js';
import { signedHeader } from './stored-report-text.js';

/** A study's signed impression, quoted with its signer; or that the study's report is not signed. */
function signedOrNot(report: TReport | null, which: string): string {
  if (!report) return `${which}: not signed yet.`;
  const addenda = report.addenda.length ? `\n${quoted(report.addenda.map((a) => `Addendum: ${a.text}`))}` : '';
  return `${which}: ${signedHeader(report, 'the impression')}\n\n${quoted(report.sections.impression.split('\n'))}${addenda}`;
}

/**
 * The signed reports' paragraph (issue 49): when either study's report is signed, the two
 * radiologists' impressions come first, and the AI's comparison after them is labelled as the AI's.
 */
function signedReportsText(ctx: TResponderContext, priorDay: string): string {
  const current = signedReportOf(ctx);
  const prior = signedReportOf({ report: ctx.priorReport ?? null });
  if (!current && !prior) return '';
  return (
    `The signed reports first:\n\n${signedOrNot(current, 'This study')}\n\n${signedOrNot(prior, `The study of ${priorDay}`)}\n\n` +
    `${AI_BEFORE} compared the two films as follows; where it differs from a signed report, the signed report stands.\n\n`
  );
}

/**
 * The comparison with the patient's previous analysis, from the two stored results only; or why
 * there is nothing to compare with. Never a guess about the earlier film itself.
 */
export function compareWithPrevious(ctx: TResponderContext): string {
  const c = ctx.comparison;
  if (!c) {
    return (
      'There is no earlier analysis to compare with: this chat is either not linked to a saved patient profile, ' +
      'or this is the first completed analysis of that patient. Start the next analysis from the same profile and its report will compare the two.' +
      closing
    );
  }
  const ctr = ctrChangeText(c);
  const findings = c.findings.length
    ? bullets(changeSentences(c))
    : '- The two model versions report no finding in common.';
  const notes = [...(ctr ? [`${ctr}.`] : []), ...c.caveats];
  return (
    `${signedReportsText(ctx, priorDate(c))}${comparisonHeading(c)} (model ${c.modelVersions.previous} then ${c.modelVersions.current}), from the two stored results:\n\n${findings}` +
    `${notes.length ? `\n\n${bullets(notes)}` : ''}\n\n${ruleText(c)} The comparison describes the model's outputs, not the disease; compare the films themselves.${closing}`
  );
}
