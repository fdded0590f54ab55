import { sql, type SQL } from 'drizzle-orm';
import { LIKELY_FROM } from '@contracts/finding-call.js';
import { analyses, dicomInstances, studyClaims, teamMembers } from '../../db/schema.js';
import type { TUrgency } from '@contracts/schemas/worklist.js';

/** The worklist's order of urgency: the rank SQL computes, most urgent first. */
export const URGENCIES_BY_RANK = ['urgent', 'review', 'routine', 'pending', 'none'] as const satisfies TUrgency[];
export const rankOf = (u: TUrgency): number => URGENCIES_BY_RANK.indexOf(u);

/** The site's urgent labels as a SQL text[]. */
const labelArray = (labels: readonly string[]): SQL =>
  sql`array[${sql.join(
    labels.map((l) => sql`${l}`),
    sql`, `,
  )}]::text[]`;

/** The stored result's findings as rows (none when the result has no findings array). */
const findingRows = sql`jsonb_array_elements(case when jsonb_typeof(${analyses.result}->'findings') = 'array' then ${analyses.result}->'findings' else '[]'::jsonb end) f`;

/**
 * A stored finding called "Likely", read with today's rule (contracts/finding-call.ts currentCall):
 * 'positive' and at or above its Likely point (50 % for results stored without one). No column
 * holds it (issue 48 adds no migration): read from the stored result, and only for rows whose
 * flagged labels already meet an urgent label.
 */
const likelySql = sql`(f->>'call' = 'positive' and (f->>'probability')::float8 >= greatest(${LIKELY_FROM}::float8, coalesce((f->>'likelyThreshold')::float8, 0)))`;

/**
 * Issue 48: the row's flagged findings among the site's urgent ones, each with whether it is
 * "Likely", as jsonb [{label, display, likely}] (list-worklist.ts words `urgentBecause` from it).
 */
export function urgentFlagsSql(
  urgentLabels: readonly string[],
): SQL<{ label: string; display: string; likely: boolean }[]> {
  if (!urgentLabels.length) return sql`'[]'::jsonb`;
  return sql`(select coalesce(jsonb_agg(jsonb_build_object('label', f->>'label', 'display', f->>'display', 'likely', ${likelySql}) order by (f->>'probability')::float8 desc), '[]'::jsonb) from ${findingRows} where f->>'call' in ('positive', 'possible') and f->>'label' = any(${labelArray(urgentLabels)}))`;
}

/**
 * worklist-triage.ts urgencyOfTriage as SQL over a dicom_instances row and its analysis (left
 * joined): the site's urgent labels are a parameter, so a change an admin makes applies to the
 * next read, stored studies included. An instance without a worked-out triage reads pending.
 * `status`: the row's worklist status (a browser upload has no instance: list-worklist.ts maps
 * its analysis's status). Issue 48: only a "Likely" urgent finding makes a study Urgent, unless
 * the site also counts "Possible" ones (`alsoPossible`).
 */
export function urgencyRankSql(
  urgentLabels: readonly string[],
  status: SQL = sql`${dicomInstances.status}`,
  alsoPossible = false,
): SQL<number> {
  // No urgent label: nothing is urgent (a high triage score alone never is, issue 42 item 5).
  const flagged = urgentLabels.length ? sql`${analyses.calledLabels} && ${labelArray(urgentLabels)}` : sql`false`;
  const urgent =
    alsoPossible || !urgentLabels.length
      ? flagged
      : sql`(${flagged} and exists (select 1 from ${findingRows} where f->>'label' = any(${labelArray(urgentLabels)}) and ${likelySql}))`;
  return sql<number>`(case
    when ${status} in ('skipped', 'failed') then ${rankOf('none')}
    when ${analyses.triageAssessed} is not true then ${rankOf('pending')}
    when coalesce(${urgent}, false) then ${rankOf('urgent')}
    when coalesce(cardinality(${analyses.calledLabels}), 0) > 0 or coalesce(${analyses.anyUncertain}, false) then ${rankOf('review')}
    else ${rankOf('routine')} end)::int`;
}

/**
 * A claim still held (study_claims, joined or updated): made, younger than the timeout, and by
 * someone still in the study's team (`teamId`: the study's team, a value or a column). An older
 * claim, or one by a member who has left or been removed, is free: no timer or clean-up clears
 * it, every read and every claim reads it as none.
 */
export function activeClaimSql(timeoutMinutes: number, teamId: SQL | string): SQL<boolean> {
  const c = studyClaims;
  const team = typeof teamId === 'string' ? sql`${teamId}::uuid` : teamId;
  return sql<boolean>`coalesce(${c.claimedBy} is not null and ${c.claimedAt} > now() - make_interval(mins => ${timeoutMinutes}::int) and ${c.claimedBy} in (select ${teamMembers.userId} from ${teamMembers} where ${teamMembers.teamId} = ${team}), false)`;
}
