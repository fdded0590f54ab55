import { CONDITION_NOTES } from '../../knowledge/cxr-conditions.js';
import type { TModelIdentity } from './read-model-identity.js';

/**
 * Which findings a site may make urgent (issue 42 item 5): the shipped model's findings that can
 * fire for any patient the site reads. Left out: summary scores (a high triage score alone must
 * never make a study Urgent), pediatric-only findings (in an adult department "Pneumonia / lung
 * opacity" can never fire; model 5's adult airspace opacity is offered instead) and hints read only
 * beside another finding. Pure.
 */
export function offeredUrgentFindings(model: TModelIdentity | null): TModelIdentity['findings'] {
  return (model?.findings ?? []).filter((f) => !f.summary && f.ageGroup !== 'pediatric' && !f.conditional);
}

/**
 * The stored choice read against what is offered now: a label still offered is kept; one the
 * model no longer offers is replaced by the finding that answers for it (the knowledge notes'
 * `answersFor`: a site that made pediatric pneumonia urgent gets model 5's adult airspace
 * opacity); anything else is dropped (a finding the model no longer ships cannot fire). Pure.
 */
export function migrateUrgentLabels(stored: readonly string[], offered: readonly string[]): string[] {
  const offer = new Set(offered);
  const out = new Set<string>();
  for (const label of stored) {
    if (offer.has(label)) {
      out.add(label);
      continue;
    }
    const by = Object.values(CONDITION_NOTES).find((n) => offer.has(n.label) && n.answersFor?.includes(label));
    if (by) out.add(by.label);
  }
  return [...out].sort();
}
