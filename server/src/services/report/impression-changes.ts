import type { TFinding } from '@contracts/schemas/analysis.js';
import { SUMMARY_LABEL } from '../analysis/anatomy-text.js';
import { impressionLabels } from '../models/impression-labels.js';

export type TImpressionChange = 'removed' | 'added';

/**
 * What the signer changed in the AI's impression, per finding (issue 41): a finding the drafted
 * impression named (called "Likely", issue 48) that the signed one no longer states is 'removed';
 * one it did not name (a "Possible" flag included: the draft keeps those out of the impression)
 * that it now states is 'added'. Findings left as drafted are not listed, nor the summary (triage)
 * score: a reader names what is on the film, not whether it is "abnormal".
 *
 * "States" is the product's one reading of a signed impression (impressionLabels, the chat's
 * rule): a negation before the name negates it ("No pleural effusion"), one after does not
 * ("Pleural effusion, not large"), so the feedback stored here agrees with what the chat, the
 * export and the model comparison say the radiologist signed.
 */
export function impressionChanges<F extends Pick<TFinding, 'label' | 'display' | 'call'>>(
  findings: readonly F[],
  signedImpression: string,
): { finding: F; change: TImpressionChange }[] {
  const present = impressionLabels(signedImpression, findings);
  const out: { finding: F; change: TImpressionChange }[] = [];
  for (const f of findings) {
    if (f.label === SUMMARY_LABEL) continue;
    const stated = present.has(f.label);
    const named = f.call === 'positive';
    if (named && !stated) out.push({ finding: f, change: 'removed' });
    else if (!named && stated) out.push({ finding: f, change: 'added' });
  }
  return out;
}
