import { isCalled } from '@contracts/finding-call.js';
import { CALL_WORDS, likelyPointText, NO_FINDING_FLAGGED, operatingPointText, pct1 } from '@contracts/finding-story.js';
import type { TFinding } from '@contracts/schemas/analysis.js';
import { SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import { impressionOrder } from '../../report/finding-phrase.js';
import { evidenceOf } from './grounded-where.js';
import { bullets, closing, figure, figureText, heartSizeText } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';

/**
 * "Why is X flagged?": the finding's calibrated probability against its operating point (the
 * one story's words), where its heatmap evidence lies, and what the model card measured for it
 * (its one-vs-rest figure on held-out films). Nothing else: the model gives no reasons of its own.
 */

/** The first paragraph: flagged or not, and the comparison that decided it (the one story's call words). */
function decision(f: TFinding): string {
  const p = pct1(f.probability);
  const at = operatingPointText(f);
  switch (f.call) {
    case 'positive':
      return `**${f.display} is flagged**: its calibrated probability, ${p}, is at or above ${at}, and from ${likelyPointText(f)} a flag reads "${CALL_WORDS.positive}".`;
    case 'possible':
      return (
        `**${f.display} is flagged for review**: its calibrated probability, ${p}, is at or above ${at}. ` +
        `Below ${likelyPointText(f)} it reads "${CALL_WORDS.possible}": a low-confidence flag, kept out of the drafted impression, so that it is not missed.`
      );
    case 'uncertain':
      return `**${f.display} is not called either way**: its calibrated probability, ${p}, is too close to ${at} for the model to decide.`;
    case 'negative':
      return `**${f.display} is not flagged**: its calibrated probability, ${p}, is below ${at}. That does not exclude it.`;
  }
}

const POINT_NOTE =
  'The operating point is the probability from which this model version flags the finding (a site may set its own); ' +
  'a flag is a screening signal for the clinician to confirm, not a diagnosis.';

function cardText(ctx: TResponderContext, f: TFinding): string {
  const { metrics } = ctx;
  if (!metrics)
    return `No model card figures are available for the model that produced this result (${ctx.result.modelName} ${ctx.result.modelVersion}), so none is quoted.`;
  const fig = figureText(metrics.findings[f.label]);
  const card = `model card, ${metrics.modelName || 'model'} ${metrics.modelVersion}`;
  if (!fig)
    return `The model card (${metrics.modelName || 'model'} ${metrics.modelVersion}) has no measured figure for ${f.display}.`;
  return (
    `${fig} (${card}). This measures how well the output separates films with the finding from the rest on ${ctx.metricsSource === 'site-cohort' ? "this site's labelled cohort" : 'held-out films'}; ` +
    "it is not the chance that this film's call is right."
  );
}

export function whyFlagged(ctx: TResponderContext, label: string): string {
  const { result } = ctx;
  const named = result.findings.find((f) => f.label === label);
  const f =
    named ?? impressionOrder(result.findings, SUMMARY_LABEL).find((x) => x.label !== SUMMARY_LABEL && isCalled(x.call));
  if (!f) {
    const all = result.findings.filter((x) => x.label !== SUMMARY_LABEL).map(figure);
    return (
      `${NO_FINDING_FLAGGED}: every finding this model reports is below its operating point.\n\n${bullets(all)}\n\n` +
      `Ask about a finding by name to see how far it is from its point.${closing}`
    );
  }
  const where = isCalled(f.call) || f.call === 'uncertain' ? `\n\n**Where the heat lies:** ${evidenceOf(ctx, f)}` : '';
  const heart =
    f.label === 'cardiomegaly' && result.anatomy
      ? `\n\n**Heart size:** ${heartSizeText(ctx, { withFinding: false })}`
      : '';
  return `${decision(f)}\n\n${POINT_NOTE}${where}${heart}\n\n**What the model card says of its accuracy:** ${cardText(ctx, f)}${closing}`;
}
