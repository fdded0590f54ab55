import { CONDITION_NOTES, NOT_ASSESSED } from '../../../knowledge/cxr-conditions.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { intentClassifier, type TIntentClassifier } from '../intents/classify-intent.js';
import type { TIntentKind } from '../intents/intent-kinds.js';
import { displayOf } from './grounded-scope.js';
import type { TLevel, TSide } from './grounded-where.js';

/**
 * What a message asks: one part per question in it, each with its intent (the committed
 * classifier, intents/), the findings it names, and the side or zone it narrows to. The findings
 * and conditions are matched by name (the knowledge notes' aliases), never guessed: a condition
 * the result does not report is "not assessed" whatever is asked about it.
 */

/** The intents about one named finding ('' when the question names none). */
type TFindingKind = 'finding' | 'why-flagged';

export type TIntent =
  | { kind: 'not-assessed'; condition: string; label?: string }
  | { kind: TFindingKind; label: string }
  | { kind: 'ask-back'; options: [TIntentKind, TIntentKind] }
  | { kind: Exclude<TIntentKind, TFindingKind> };

export interface TQuestionPart {
  text: string;
  intent: TIntent;
  /** Reported findings the part names, most specific first. */
  labels: string[];
  side?: TSide;
  level?: TLevel;
}

const aliasPattern = (alias: string) =>
  new RegExp(`(^|[^a-z0-9])${alias.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}`, 'i');

/** Every finding alias, compiled once (a question is matched against all of them). */
const LABEL_ALIASES = Object.values(CONDITION_NOTES).flatMap((n) =>
  n.aliases.map((a) => ({ label: n.label, len: a.length, re: aliasPattern(a) })),
);
const OTHER_ALIASES = NOT_ASSESSED.map((c) => ({ name: c.name, res: c.aliases.map(aliasPattern) }));

/**
 * Lines, tubes and devices, named: no model here has an output for them, so such a question gets
 * the devices answer whatever else it asks ("is the ET tube too low?" is not about a finding).
 * "Line" alone is not enough: "the impression line" is a line of text.
 */
const DEVICE_WORDS =
  /pacemaker|pacing (wire|lead)|defibrillator|\bicds?\b|catheter|\btubes?\b|\bpicc\b|\bcvc\b|\bng\b|nasogastric|endotracheal|\bett\b|trache?ostomy|sternotomy|\bwires?\b|\bclips?\b|\bstents?\b|\bhardware\b|\bimplant(s|ed)?\b|\bdevices\b|\b(any|medical|implanted|cardiac|other) device\b|\b(chest|intercostal) drain|\b(central|picc|arterial|venous|iv|jugular|subclavian|midline) lines?\b|\blines?\b (tip|position|placement)|\blines (and|or)\b|\bany lines\b/;

/**
 * Anatomy no output describes (issue 49): the airway, the mediastinum and hila, the pleural
 * angles, the diaphragm, bones and soft tissues. Named, and with no finding named beside it, the
 * question gets the anatomy answer whatever the classifier would guess ("is the left CP angle
 * blunted?" is not a question about where a finding lies).
 */
const ANATOMY_WORDS =
  /trache|\bairways?\b|carina|mediastin|\bhil(um|a|ar)\b|costophrenic|\bcp ?angles?\b|\bcpas?\b|pleural angles?|diaphragm|\bribs?\b|clavic|scapul|vertebr|\bspine\b|\bbon(e|es|y)\b|soft tissues?|subcutaneous/;

/** Every label the question names, most specific first: 'bacterial pneumonia' must win over 'pneumonia'. */
function mentionedLabels(q: string): string[] {
  const hits = LABEL_ALIASES.filter((a) => a.re.test(q)).sort((a, b) => b.len - a.len);
  return [...new Set(hits.map((h) => h.label))];
}

/** Finding labels that answer for another label the result does not report (a note's `answersFor`). */
const STAND_INS = Object.values(CONDITION_NOTES).flatMap((n) => (n.answersFor ?? []).map((l) => [l, n.label] as const));

/**
 * The labels a question names, read against the result: a label it does not report is answered
 * by a finding that stands in for it (an adult's "pneumonia?" by the airspace-opacity finding).
 */
function labelsFor(q: string, result?: TStoredResult): string[] {
  const mentioned = mentionedLabels(q);
  if (!result) return mentioned;
  const reported = (l: string) => result.findings.some((f) => f.label === l);
  const swapped = mentioned.map((l) =>
    reported(l) ? l : (STAND_INS.find(([asked, by]) => asked === l && reported(by))?.[1] ?? l),
  );
  return [...new Set(swapped)];
}

function sideOf(q: string): TSide | undefined {
  const left = /\bleft\b/.test(q);
  const right =
    /\bright (side|lung|zone|upper|middle|lower|base|apex|hemithorax)\b|\bon the right\b|\bthe right\b/.test(q);
  return left === right ? undefined : left ? 'left' : 'right';
}

function levelOf(q: string): TLevel | undefined {
  if (/\b(upper|apex|apices|apical|top)\b/.test(q)) return 'upper';
  if (/\b(middle|mid)\b/.test(q)) return 'middle';
  if (/\b(lower|base|bases|basal|bottom)\b/.test(q)) return 'lower';
  return undefined;
}

/** The intent of one question, on its own (no history). */
export function classifyQuestion(
  query: string,
  result?: TStoredResult,
  classifier: TIntentClassifier = intentClassifier(),
): TIntent {
  const q = query.toLowerCase();
  if (DEVICE_WORDS.test(q)) return { kind: 'devices' };
  const mentioned = labelsFor(q, result);
  const reported = (l: string) => !result || result.findings.some((f) => f.label === l);
  const label = mentioned.find(reported) ?? null;
  const missing = mentioned.find((l) => !reported(l));
  if (!label && missing && result)
    return { kind: 'not-assessed', condition: displayOf(result, missing), label: missing };
  const other = OTHER_ALIASES.find((c) => c.res.some((re) => re.test(q)));
  if (other && !label) return { kind: 'not-assessed', condition: other.name };
  if (!label && ANATOMY_WORDS.test(q)) return { kind: 'anatomy' };
  const [top, second] = classifier.rank(query) as [{ kind: TIntentKind; p: number }, { kind: TIntentKind }];
  if (top.p < classifier.floor) return { kind: 'ask-back', options: [top.kind, second.kind] };
  if (top.kind === 'finding') return { kind: 'finding', label: label ?? '' };
  // "Why is the heart flagged as big?": the heart is the cardiomegaly finding's, when the result reports it.
  const heart = !label && /\b(heart|cardiac)\b/.test(q) && reported('cardiomegaly') ? 'cardiomegaly' : '';
  if (top.kind === 'why-flagged') return { kind: 'why-flagged', label: label ?? heart };
  return { kind: top.kind };
}

const QUESTION_START =
  /^(what|where|which|how|is|are|does|do|did|should|can|could|would|will|why|when|any|has|have|tell|explain|give|show|compare)\b/;

/** A message cut into its questions: sentences, then clauses joined by "and"/"also" that start a question of their own. */
export function splitQuestions(message: string): string[] {
  const sentences = message
    .split(/[?!;\n]+|\.(?:\s+|$)/)
    .map((s) => s.trim())
    .filter((s) => /[a-z0-9]/i.test(s));
  return sentences.flatMap((s) => {
    const out: string[] = [];
    let from = 0;
    for (const m of s.matchAll(/\s*,?\s*\b(?:and|also|plus)\s+(?:also\s+)?/gi)) {
      const rest = s.slice(m.index + m[0].length);
      if (m.index > 0 && QUESTION_START.test(rest.toLowerCase()) && rest.split(/\s+/).length >= 3) {
        out.push(s.slice(from, m.index));
        from = m.index + m[0].length;
      }
    }
    out.push(s.slice(from));
    return out.map((p) => p.trim()).filter(Boolean);
  });
}

/** "and the left side?", "what about covid?": a fragment that leans on the question before it. */
const FOLLOW_UP = /^\s*(and|what about|how about|same for|also|and what about|and for)\b/i;

function partOf(text: string, intent: TIntent, result?: TStoredResult): TQuestionPart {
  const q = text.toLowerCase();
  const reported = (l: string) => !result || result.findings.some((f) => f.label === l);
  const part: TQuestionPart = { text, intent, labels: labelsFor(q, result).filter(reported) };
  const side = sideOf(q);
  const level = levelOf(q);
  if (side) part.side = side;
  if (level) part.level = level;
  return part;
}

/**
 * The parts of a message. A follow-up fragment ("and the left side?") the classifier is not sure
 * of takes the intent of the previous question (the last part of this message, else the chat's
 * last user message) and keeps its findings unless it names its own.
 */
export function understandQuestion(
  message: string,
  history: { role: string; content: string }[] = [],
  result?: TStoredResult,
  classifier: TIntentClassifier = intentClassifier(),
): TQuestionPart[] {
  const lastAsked = history.filter((m) => m.role === 'user').at(-1)?.content;
  let previous: TQuestionPart | undefined = lastAsked
    ? understandQuestion(lastAsked, [], result, classifier).at(-1)
    : undefined;
  const parts: TQuestionPart[] = [];
  for (const text of splitQuestions(message)) {
    let part = partOf(text, classifyQuestion(text, result, classifier), result);
    // A condition not assessed or a device named is answered as such, never as the previous question.
    const named = part.intent.kind === 'not-assessed' || part.intent.kind === 'devices';
    if (previous && FOLLOW_UP.test(text) && !named) {
      const top = classifier.rank(text)[0]!;
      const sure = part.intent.kind !== 'ask-back' && top.p >= 0.6;
      if (!sure) {
        const inherited: TIntent =
          previous.intent.kind === 'finding' || previous.intent.kind === 'why-flagged'
            ? { kind: previous.intent.kind, label: part.labels[0] ?? previous.intent.label }
            : previous.intent;
        part = { ...part, intent: inherited };
      }
      // "and the left side?" after "where is the pneumonia?": still about pneumonia.
      if (!part.labels.length) part = { ...part, labels: previous.labels };
    }
    parts.push(part);
    previous = part;
  }
  if (!parts.length) parts.push(partOf(message, classifyQuestion(message, result, classifier), result));
  return parts;
}
