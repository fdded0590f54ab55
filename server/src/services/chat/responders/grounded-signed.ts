import { CONDITION_NOTES, NOT_ASSESSED } from '../../../knowledge/cxr-conditions.js';
import { flaggedFindings, SUMMARY_LABEL } from '@contracts/finding-story.js';
import type { TReport } from '@contracts/schemas/report.js';
import { bullets, closing, displayOf } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';
import {
  AI_BEFORE,
  aiFindingText,
  findingMentions,
  quoted,
  signedImpressionText,
  signedMentionsOf,
} from './signed-report-facts.js';

/**
 * The chat's answers once the report is signed (issue 49 item 1): the signed report first, in
 * the radiologist's words, then the AI's output labelled as the AI's and as superseded where the
 * signed report does not name a finding it flagged. Never a flag the radiologist removed as present.
 */

const SIGN_LINE_SIGNED =
  "The signed report is the study's report, the one the hospital received; the AI's output is kept beside it for reference only.";

/** What the AI flagged, each marked when the signed report does not name it; or that it flagged nothing. */
function aiFlaggedText(ctx: TResponderContext, report: TReport): string {
  const flagged = flaggedFindings(ctx.result.findings);
  if (!flagged.length) return `${AI_BEFORE} flagged no finding.`;
  return `${AI_BEFORE} flagged (most probable first):\n${bullets(flagged.map((f) => aiFindingText(report, f)))}`;
}

/** "Is there X?" / "what about X?": what the signed report says about it, then the AI's figure as the AI's. */
export function signedFindingAnswer(ctx: TResponderContext, report: TReport, label: string): string {
  const f = ctx.result.findings.find((x) => x.label === label);
  const name = f?.display ?? displayOf(ctx.result, label);
  const mentions = f ? findingMentions(report, f) : [];
  const said = mentions.length
    ? `**${name}: the signed report says**\n\n${quoted(mentions)}`
    : `**${name}: the signed report does not name it.** The radiologist did not report it as present.`;
  const ai = f
    ? `${AI_BEFORE} ${f.call === 'negative' ? 'did not flag it' : 'flagged it'}: ${aiFindingText(report, f)}. The signed report supersedes it.`
    : '';
  const what = CONDITION_NOTES[label] ? `\n\n**What it is:** ${CONDITION_NOTES[label].what}` : '';
  return `${said}\n\n${signedImpressionText(report)}${ai ? `\n\n${ai}` : ''}${what}${closing}`;
}

/** A condition no model here assesses: what the signed report says about it, if anything. */
export function signedConditionText(report: TReport, condition: string): string {
  const entry = NOT_ASSESSED.find((c) => c.name === condition);
  const mentions = signedMentionsOf(report, [condition.toLowerCase(), ...(entry?.aliases ?? [])]);
  return mentions.length
    ? `The signed report on ${condition}:\n\n${quoted(mentions)}`
    : `The signed report does not name ${condition}.`;
}

/** "What is the most important finding?": the first line of the signed impression. */
export function signedTopFindingAnswer(ctx: TResponderContext, report: TReport): string {
  const first = report.sections.impression.split('\n').find((l) => l.trim()) ?? report.sections.impression;
  return (
    `The most important finding, the first line of the signed impression: **${first.trim()}**\n\n` +
    `${signedImpressionText(report)}\n\n${aiFlaggedText(ctx, report)}\n\n${SIGN_LINE_SIGNED}${closing}`
  );
}

/** "Summarise": the signed impression and addenda, then the AI's flags as the AI's. */
export function signedSummaryAnswer(ctx: TResponderContext, report: TReport): string {
  const triage = ctx.result.findings.find((f) => f.label === SUMMARY_LABEL);
  const score = triage ? ` Its triage score: ${aiFindingText(report, triage)}.` : '';
  return (
    `${signedImpressionText(report)}\n\n${aiFlaggedText(ctx, report)}${score}\n\n${SIGN_LINE_SIGNED} ` +
    'You can ask for the whole signed report, about a finding, or how the AI came to its output.' +
    closing
  );
}

/**
 * The head of any other answer built from the AI's figures once the report is signed: the signed
 * impression, then a line that labels what follows as the AI's output.
 */
export function signedPreface(report: TReport): string {
  return (
    `${signedImpressionText(report)}\n\n` +
    `What follows is the AI's output, before the radiologist's report; where the two differ, the signed report stands.\n\n`
  );
}
