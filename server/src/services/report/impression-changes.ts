import type { TFinding } from '@contracts/schemas/analysis.js';
import { CONDITION_NOTES } from '../../knowledge/cxr-conditions.js';
import { SUMMARY_LABEL } from '../analysis/anatomy-text.js';

export type TImpressionChange = 'removed' | 'added';
/** What naming a finding needs: the stored finding, an export's, a not-assessed one. */
type TNamed = Pick<TFinding, 'label' | 'display'>;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NEGATION = /\b(no|not|without|negative for|resolved|absent)\b/i;

/** The names a reader may write a finding under: its display name and its parts, its label, its note's name. */
function namesOf(f: TNamed): string[] {
  const display = f.display.toLowerCase();
  const parts = display.split(/ \/ | \(/).map((s) => s.replace(/\)$/, '').trim());
  const note = CONDITION_NOTES[f.label]?.name.toLowerCase();
  return [...new Set([display, ...parts, f.label.replace(/_/g, ' '), ...(note ? [note] : [])])].filter(
    (n) => n.length >= 4,
  );
}

/** Whether `text` says the finding is there: named in a sentence with no negation before the name. */
export function saysPresent(text: string, f: TNamed): boolean {
  const sentences = text.toLowerCase().split(/[.;\n]+/);
  return namesOf(f).some((name) => {
    const re = new RegExp(`\\b${escape(name)}\\b`);
    return sentences.some((s) => {
      const at = s.search(re);
      return at >= 0 && !NEGATION.test(s.slice(0, at));
    });
  });
}

/**
 * What the signer changed in the AI's impression, per finding (issue 41): a finding the drafted
 * impression named (called "Likely", issue 48) that the signed one no longer states is 'removed';
 * one it did not name (a "Possible" flag included: the draft keeps those out of the impression)
 * that it now states is 'added'. Findings left as drafted are not listed, nor the summary (triage)
 * score: a reader names what is on the film, not whether it is "abnormal".
 */
export function impressionChanges<F extends Pick<TFinding, 'label' | 'display' | 'call'>>(
  findings: readonly F[],
  signedImpression: string,
): { finding: F; change: TImpressionChange }[] {
  const out: { finding: F; change: TImpressionChange }[] = [];
  for (const f of findings) {
    if (f.label === SUMMARY_LABEL) continue;
    const present = saysPresent(signedImpression, f);
    const named = f.call === 'positive';
    if (named && !present) out.push({ finding: f, change: 'removed' });
    else if (!named && present) out.push({ finding: f, change: 'added' });
  }
  return out;
}
