import { SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import { INTENT_PHRASES } from '../intents/intent-kinds.js';
import * as answer from './grounded-answers.js';
import { compareWithPrevious } from './grounded-compare.js';
import { decisionAnswer } from './grounded-decisions.js';
import { devicesAnswer } from './grounded-devices.js';
import { modelAccuracy } from './grounded-model-card.js';
import { draftReportAnswer, impressionAnswer, topFindingAnswer } from './grounded-report.js';
import { closing } from './grounded-scope.js';
import { heatmapMeaning, whereIsIt } from './grounded-where.js';
import type { Responder, TResponderContext } from './responder.js';
import { understandQuestion, type TQuestionPart } from './understand-question.js';
import { whyFlagged } from './grounded-why.js';

export { classifyQuestion, type TIntent } from './understand-question.js';

/** One question's answer, ending with the disclaimer. */
function answerPart(ctx: TResponderContext, part: TQuestionPart): string {
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
