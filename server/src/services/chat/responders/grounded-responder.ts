import { CONDITION_NOTES, NOT_ASSESSED } from '../../../knowledge/cxr-conditions.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import * as answer from './grounded-answers.js';
import { COMPARE_QUESTION, compareWithPrevious } from './grounded-compare.js';
import { displayOf } from './grounded-scope.js';
import type { Responder, TResponderContext } from './responder.js';

export type TIntent =
  | { kind: 'not-assessed'; condition: string; label?: string }
  | { kind: 'finding'; label: string }
  | {
      kind:
        | 'compare'
        | 'heart-size'
        | 'confidence'
        | 'next-steps'
        | 'differential'
        | 'patient'
        | 'normal'
        | 'quality'
        | 'summary';
    };

const has = (q: string, re: RegExp) => re.test(q);
const mentions = (q: string, alias: string) =>
  new RegExp(`(^|[^a-z0-9])${alias.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}`, 'i').test(q);

/** Every label the question names, most specific first: 'bacterial pneumonia' must win over 'pneumonia'. */
function mentionedLabels(q: string): string[] {
  const hits = Object.values(CONDITION_NOTES)
    .flatMap((n) => n.aliases.filter((a) => mentions(q, a)).map((a) => ({ label: n.label, len: a.length })))
    .sort((a, b) => b.len - a.len);
  return [...new Set(hits.map((h) => h.label))];
}

/** CTR and heart-size wording (the finding "cardiomegaly" itself is a label, handled as one). */
const HEART_SIZE =
  /\bctr\b|cardio-?thoracic|heart (size|shadow|width)|size of the heart|cardiac (size|silhouette|shadow|width)|(heart|cardiac silhouette) (is |looks? |seems? )?(enlarged|big|large|normal size)|contours?|outlines?|anatomy/;

/**
 * Which question this is. Order matters: the more specific intents are tried first. With the
 * stored result, a named finding that the result does not report is "not assessed" whatever
 * else is asked about it (its confidence, its differential…): there is nothing to ground on.
 */
export function classifyQuestion(query: string, result?: TStoredResult): TIntent {
  const q = query.toLowerCase();
  const mentioned = mentionedLabels(q);
  const reported = (l: string) => !result || result.findings.some((f) => f.label === l);
  const label = mentioned.find(reported) ?? null;
  const missing = mentioned.find((l) => !reported(l));
  if (!label && missing && result)
    return { kind: 'not-assessed', condition: displayOf(result, missing), label: missing };
  const other = NOT_ASSESSED.find((c) => c.aliases.some((a) => mentions(q, a)));
  if (other && !label) return { kind: 'not-assessed', condition: other.name };
  if (has(q, COMPARE_QUESTION)) return { kind: 'compare' };
  if (has(q, HEART_SIZE)) return { kind: 'heart-size' };
  // "…for this patient" is a clinician's question; explaining *to* the patient is this intent.
  if (
    has(
      q,
      /(explain|tell|say|describe|put|talk)\b.*\b(to|for|with) (the |my |a |this )?(patient|family|parent|mother|father|child)|lay(man|person)?\b|plain (language|words|english)|simple (terms|words)|non-?medical/,
    )
  ) {
    return { kind: 'patient' };
  }
  if (has(q, /differential|ddx|what else|other (causes?|possibilit|diagnos)|alternative|mimic/))
    return { kind: 'differential' };
  if (has(q, /confiden|how sure|certain|probab|likel|accura|reliab|trust|calibrat|percent|%/))
    return { kind: 'confidence' };
  if (
    has(
      q,
      /next step|what (should|do) (i|we)|recommend|manage|treat|work-?up|follow[- ]?up|further (test|imaging)|what now|plan/,
    )
  )
    return { kind: 'next-steps' };
  if (
    has(
      q,
      /quality|blur|rotat|exposure|positioning|inverted|contrast|resolution|artefact|artifact|image (ok|good|adequate)/,
    )
  )
    return { kind: 'quality' };
  if (label) return { kind: 'finding', label };
  if (has(q, /\bnormal\b|healthy|\bclear\b|anything wrong|abnormal/)) return { kind: 'normal' };
  if (has(q, /explain|what (is|does|do)|mean|finding|top|heat ?map|overlay|highlight/)) {
    return { kind: 'finding', label: '' };
  }
  return { kind: 'summary' };
}

/** The answer text for a question: pure, deterministic, grounded on the stored result. */
export function groundedAnswer(ctx: TResponderContext): string {
  const intent = classifyQuestion(ctx.query, ctx.result);
  switch (intent.kind) {
    case 'not-assessed':
      return answer.notAssessed(ctx, intent.condition, intent.label);
    case 'compare':
      return compareWithPrevious(ctx);
    case 'heart-size':
      return answer.heartSize(ctx);
    case 'finding': {
      const label =
        intent.label ||
        ctx.result.topFinding ||
        ctx.result.findings.find((f) => f.call === 'uncertain' && f.label !== SUMMARY_LABEL)?.label;
      return label ? answer.explainFinding(ctx, label) : answer.normalOrNot(ctx);
    }
    case 'confidence':
      return answer.confidence(ctx);
    case 'next-steps':
      return answer.nextSteps(ctx);
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
  }
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
