import { isCalled } from '@contracts/finding-call.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import type { TWorklistItem } from '@contracts/schemas/worklist.js';
import { SUMMARY_LABEL } from '../analysis/anatomy-text.js';

/**
 * What a study's urgency is worked out from, read once from its stored result and kept on the
 * analysis row (the `analyses` triage columns), so the worklist ranks in SQL. `assessed` false: no
 * finding was assessed (refused, no findings, unreadable), the study reads pending.
 */
export interface TTriage {
  assessed: boolean;
  calledLabels: string[];
  /** Issue 48: the labels called "Likely" (worked out from the result, not a stored column). */
  likelyLabels: string[];
  anyPositive: boolean;
  anyUncertain: boolean;
  lead: TWorklistItem['lead'];
}

const NOT_ASSESSED: TTriage = {
  assessed: false,
  calledLabels: [],
  likelyLabels: [],
  anyPositive: false,
  anyUncertain: false,
  lead: null,
};

/**
 * The triage of one stored result, calls read with today's rule (ZFinding's currentCall). The
 * lead is the called finding a radiologist would name first: the most probable one, the summary
 * score left out unless it is the only one called.
 */
export function triageOf(result: unknown): TTriage {
  const parsed = result ? ZStoredResult.safeParse(result) : null;
  if (!parsed?.success || !parsed.data.gate.accepted || parsed.data.findings.length === 0) return NOT_ASSESSED;
  const findings = parsed.data.findings;
  const called = findings.filter((f) => isCalled(f.call));
  const named = called.filter((f) => f.label !== SUMMARY_LABEL);
  const lead = (named.length ? named : called).reduce<(typeof called)[number] | null>(
    (a, b) => (!a || b.probability > a.probability ? b : a),
    null,
  );
  return {
    assessed: true,
    calledLabels: called.map((f) => f.label),
    likelyLabels: called.filter((f) => f.call === 'positive').map((f) => f.label),
    anyPositive: called.some((f) => f.call === 'positive'),
    anyUncertain: findings.some((f) => f.call === 'uncertain'),
    lead: lead && { display: lead.display, probability: lead.probability, call: lead.call },
  };
}

/** The analyses row's triage columns for a result (set beside `result` wherever it is stored). */
export function triageColumns(result: unknown) {
  const t = triageOf(result);
  return {
    triageAssessed: t.assessed,
    calledLabels: t.calledLabels,
    anyPositive: t.anyPositive,
    anyUncertain: t.anyUncertain,
    leadDisplay: t.lead?.display ?? null,
    leadProbability: t.lead?.probability ?? null,
    leadCall: t.lead?.call ?? null,
  };
}

/**
 * Urgency from a triage (issue 42 item 5, issue 48): urgent only when a finding the site marked
 * urgent is called "Likely" (or, when the site also counts them, flagged "Possible"); review on any
 * other flag, the triage score's included (triage-abnormal with nothing flagged), or a finding an
 * older result left uncertain; routine otherwise (triage-negative, nothing flagged). A high score
 * alone never makes a study urgent, so a normal film is never Urgent. Skipped and failed studies
 * are none. worklist-urgency-sql.ts is the same rule in SQL.
 */
export function urgencyOfTriage(
  triage: TTriage,
  status: TWorklistItem['status'],
  urgentLabels: ReadonlySet<string> = new Set(),
  alsoPossible = false,
): Pick<TWorklistItem, 'urgency' | 'score' | 'lead'> {
  if (status === 'skipped' || status === 'failed') return { urgency: 'none', score: null, lead: null };
  if (!triage.assessed) return { urgency: 'pending', score: null, lead: null };
  const urgentBy = alsoPossible ? triage.calledLabels : triage.likelyLabels;
  const urgency = urgentBy.some((l) => urgentLabels.has(l))
    ? 'urgent'
    : triage.calledLabels.length > 0 || triage.anyUncertain
      ? 'review'
      : 'routine';
  return { urgency, score: scoreOf(triage.lead?.probability ?? null), lead: triage.lead };
}

/** The sort key shown with an item: the lead's probability to four places. */
export const scoreOf = (p: number | null): number | null => (p === null ? null : Number(p.toFixed(4)));

/** Urgency of one study from its stored result (the triage worked out on the fly). */
export function urgencyOf(
  result: unknown,
  status: TWorklistItem['status'],
  urgentLabels: ReadonlySet<string> = new Set(),
  alsoPossible = false,
): Pick<TWorklistItem, 'urgency' | 'score' | 'lead'> {
  return urgencyOfTriage(triageOf(result), status, urgentLabels, alsoPossible);
}
