import { CONDITION_NOTES, NOT_ASSESSED } from '../../server/src/knowledge/cxr-conditions.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';

/**
 * The keyword matcher the chat used before issue 27 (grounded-responder.ts at that time), kept
 * word for word so that bench:chat can measure it on the same held-out phrasings ("before").
 */

type TIntent = { kind: string; label?: string; condition?: string };

/** "Compare with the previous X-ray" / "what changed since last time?" (before heart size: "has the CTR changed?"). */
export const COMPARE_QUESTION =
  /what('?s| has| have)? changed|\bchanges?\b.*\b(since|from|last|previous|prior|before)|compar|since (the )?(last|previous|prior|before)|previous (x-?ray|film|image|study|scan|analysis|one)|prior (x-?ray|film|image|study|scan|analysis)|last (time|x-?ray|film|visit)|\b(improv|worse|worsen|progress)/;

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
export function keywordIntent(query: string, result?: TStoredResult): TIntent {
  const q = query.toLowerCase();
  const mentioned = mentionedLabels(q);
  const reported = (l: string) => !result || result.findings.some((f) => f.label === l);
  const label = mentioned.find(reported) ?? null;
  const missing = mentioned.find((l) => !reported(l));
  if (!label && missing && result) return { kind: 'not-assessed', condition: missing, label: missing };
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
