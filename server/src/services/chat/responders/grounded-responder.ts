import { CONDITION_NOTES, NOT_ASSESSED } from '../../../knowledge/cxr-conditions.js';
import * as answer from './grounded-answers.js';
import type { Responder, TResponderContext } from './responder.js';

export type TIntent =
  | { kind: 'not-assessed'; condition: string }
  | { kind: 'finding'; label: string }
  | { kind: 'confidence' | 'next-steps' | 'differential' | 'patient' | 'normal' | 'quality' | 'summary' };

const has = (q: string, re: RegExp) => re.test(q);
const mentions = (q: string, alias: string) => new RegExp(`(^|[^a-z0-9])${alias.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}`, 'i').test(q);

/** Labels by specificity: 'bacterial pneumonia' must win over 'pneumonia'. */
function mentionedLabel(q: string): string | null {
  const hits = Object.values(CONDITION_NOTES)
    .flatMap((n) => n.aliases.filter((a) => mentions(q, a)).map((a) => ({ label: n.label, len: a.length })))
    .sort((a, b) => b.len - a.len);
  return hits[0]?.label ?? null;
}

/** Which question this is. Order matters: the more specific intents are tried first. */
export function classifyQuestion(query: string): TIntent {
  const q = query.toLowerCase();
  const other = NOT_ASSESSED.find((c) => c.aliases.some((a) => mentions(q, a)));
  const label = mentionedLabel(q);
  if (other && !label) return { kind: 'not-assessed', condition: other.name };
  // "…for this patient" is a clinician's question; explaining *to* the patient is this intent.
  if (has(q, /(explain|tell|say|describe|put|talk)\b.*\b(to|for|with) (the |my |a |this )?(patient|family|parent|mother|father|child)|lay(man|person)?\b|plain (language|words|english)|simple (terms|words)|non-?medical/)) {
    return { kind: 'patient' };
  }
  if (has(q, /differential|ddx|what else|other (causes?|possibilit|diagnos)|alternative|mimic/)) return { kind: 'differential' };
  if (has(q, /confiden|how sure|certain|probab|likel|accura|reliab|trust|calibrat|percent|%/)) return { kind: 'confidence' };
  if (has(q, /next step|what (should|do) (i|we)|recommend|manage|treat|work-?up|follow[- ]?up|further (test|imaging)|what now|plan/)) return { kind: 'next-steps' };
  if (has(q, /quality|blur|rotat|exposure|positioning|inverted|contrast|resolution|artefact|artifact|image (ok|good|adequate)/)) return { kind: 'quality' };
  if (label) return { kind: 'finding', label };
  if (has(q, /\bnormal\b|healthy|\bclear\b|anything wrong|abnormal/)) return { kind: 'normal' };
  if (has(q, /explain|what (is|does|do)|mean|finding|top|heat ?map|overlay|highlight/)) {
    return { kind: 'finding', label: '' };
  }
  return { kind: 'summary' };
}

/** The answer text for a question: pure, deterministic, grounded on the stored result. */
export function groundedAnswer(ctx: TResponderContext): string {
  const intent = classifyQuestion(ctx.query);
  switch (intent.kind) {
    case 'not-assessed':
      return answer.notAssessed(ctx, intent.condition);
    case 'finding': {
      const label = intent.label || ctx.result.topFinding || ctx.result.findings.find((f) => f.call === 'uncertain' && f.label !== 'abnormal')?.label;
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
