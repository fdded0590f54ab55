import { SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import { INTENT_PHRASES } from '../intents/intent-kinds.js';
import * as answer from './grounded-answers.js';
import { compareWithPrevious } from './grounded-compare.js';
import { decisionAnswer } from './grounded-decisions.js';
import { anatomyNotAssessed } from './grounded-anatomy.js';
import { devicesAnswer } from './grounded-devices.js';
import { resultLimits } from './grounded-limits.js';
import { modelAccuracy } from './grounded-model-card.js';
import { draftReportAnswer, impressionAnswer, topFindingAnswer } from './grounded-report.js';
import { closing } from './grounded-scope.js';
import {
  signedConditionText,
  signedFindingAnswer,
  signedPreface,
  signedSummaryAnswer,
  signedTopFindingAnswer,
} from './grounded-signed.js';
import { signedReportOf } from './signed-report-facts.js';
import type { TReport } from '@contracts/schemas/report.js';
import { heatmapMeaning, whereIsIt } from './grounded-where.js';
import type { Responder, TResponderContext } from './responder.js';
import { understandQuestion, type TQuestionPart } from './understand-question.js';
import { whyFlagged } from './grounded-why.js';

export { classifyQuestion, type TIntent } from './understand-question.js';

/**
 * Once the report is signed (issue 49): the answers that word the study read the signed report
 * first, and any answer built from the AI's figures is headed by the signed impression and
 * labelled as the AI's. Null: the answer is the same signed or not (the report's own answers
 * already quote the signed text; devices, the model card and the comparison word it themselves).
 */
function signedPart(ctx: TResponderContext, part: TQuestionPart, report: TReport): string | null {
  const { intent } = part;
  if (intent.kind === 'top-finding') return signedTopFindingAnswer(ctx, report);
  if (intent.kind === 'summary') return signedSummaryAnswer(ctx, report);
  if (intent.kind === 'not-assessed')
    return `${signedConditionText(report, intent.condition)}\n\n${answer.notAssessed(ctx, intent.condition, intent.label)}`;
  if (intent.kind === 'finding') {
    const labels = part.labels.length ? part.labels : [intent.label].filter(Boolean);
    if (!labels.length) return signedSummaryAnswer(ctx, report);
    return labels.map((l) => withoutClosing(signedFindingAnswer(ctx, report, l))).join('\n\n') + closing;
  }
  return null;
}

/** One question's answer, ending with the disclaimer. */
function answerPart(ctx: TResponderContext, part: TQuestionPart): string {
  const report = signedReportOf(ctx);
  if (!report) return unsignedPart(ctx, part);
  const signed = signedPart(ctx, part, report);
  if (signed !== null) return signed;
  const text = unsignedPart(ctx, part);
  return AI_WORDED.has(part.intent.kind) ? `${signedPreface(report)}${text}` : text;
}

/** The kinds whose answer is built from the AI's figures: headed by the signed impression once signed. */
const AI_WORDED = new Set<string>([
  'heart-size',
  'confidence',
  'next-steps',
  'treatment',
  'admission',
  'imaging',
  'location',
  'heatmap',
  'differential',
  'patient',
  'normal',
  'why-flagged',
]);

/** One question's answer from the stored result (and the report's own answers), ending with the disclaimer. */
function unsignedPart(ctx: TResponderContext, part: TQuestionPart): string {
  const { intent } = part;
  switch (intent.kind) {
    case 'ask-back':
      return (
        `I want to answer the question you asked. Do you mean ${INTENT_PHRASES[intent.options[0]]} or ${INTENT_PHRASES[intent.options[1]]}? ` +
        'You can also ask where the model sees a finding, what the heatmap shows, how accurate the model is, or about the heart size.' +
        closing
      );
    case 'not-assessed':
      return answer.notAssessed(ctx, intent.condition, intent.label);
    case 'compare':
      return compareWithPrevious(ctx);
    case 'heart-size':
      return answer.heartSize(ctx);
    case 'finding': {
      const labels = part.labels.length ? part.labels : [intent.label].filter(Boolean);
      if (labels.length > 1)
        return (
          labels
            .map((l) => answer.explainFinding(ctx, l))
            .map(withoutClosing)
            .join('\n\n') + closing
        );
      const label =
        labels[0] ||
        ctx.result.topFinding ||
        ctx.result.findings.find((f) => f.call === 'uncertain' && f.label !== SUMMARY_LABEL)?.label;
      return label ? answer.explainFinding(ctx, label) : answer.normalOrNot(ctx);
    }
    case 'confidence':
      return answer.confidence(ctx);
    case 'accuracy':
      return modelAccuracy(ctx, part.labels);
    case 'next-steps':
      return answer.nextSteps(ctx);
    case 'treatment':
    case 'admission':
    case 'imaging':
      return decisionAnswer(ctx, intent.kind);
    case 'location':
      return whereIsIt(ctx, { labels: part.labels, ...pick(part) });
    case 'heatmap':
      return heatmapMeaning(ctx);
    case 'differential':
      return answer.differential(ctx);
    case 'patient':
      return answer.forPatient(ctx);
    case 'normal':
      return answer.normalOrNot(ctx);
    case 'quality':
      return answer.quality(ctx);
    case 'summary':
      return answer.summary(ctx);
    case 'impression':
      return impressionAnswer(ctx);
    case 'top-finding':
      return topFindingAnswer(ctx);
    case 'devices':
      return devicesAnswer();
    case 'why-flagged':
      return whyFlagged(ctx, part.labels[0] ?? intent.label);
    case 'draft-report':
      return draftReportAnswer(ctx);
    case 'anatomy':
      return anatomyNotAssessed(ctx);
    case 'limits':
      return resultLimits(ctx);
  }
}

const pick = (p: TQuestionPart) => ({ ...(p.side ? { side: p.side } : {}), ...(p.level ? { level: p.level } : {}) });
const withoutClosing = (text: string): string => (text.endsWith(closing) ? text.slice(0, -closing.length) : text);

/**
 * The answer text for a message: pure, deterministic, grounded on the stored result. A message
 * with several questions is answered part by part, under each question, with one disclaimer.
 */
export function groundedAnswer(ctx: TResponderContext): string {
  const parts = understandQuestion(ctx.query, ctx.history, ctx.result);
  if (parts.length === 1) return answerPart(ctx, parts[0]!);
  return (
    parts.map((p) => `**${p.text.replace(/[?.!\s]+$/, '')}?**\n\n${withoutClosing(answerPart(ctx, p))}`).join('\n\n') +
    closing
  );
}

/** Streams the grounded answer in word-sized chunks, like a language model would. */
export const groundedResponder: Responder = {
  name: 'grounded',
  async *reply(ctx, signal) {
    const text = groundedAnswer(ctx);
    for (const chunk of text.match(/\S+\s*|\s+/g) ?? []) {
      if (signal?.aborted) return;
      yield chunk;
    }
  },
};
