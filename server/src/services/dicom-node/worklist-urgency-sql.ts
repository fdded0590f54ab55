import { sql, type SQL } from 'drizzle-orm';
import { analyses, dicomInstances, teamMembers } from '../../db/schema.js';
import type { TUrgency } from '@contracts/schemas/worklist.js';

/** The worklist's order of urgency: the rank SQL computes, most urgent first. */
export const URGENCIES_BY_RANK = ['urgent', 'review', 'routine', 'pending', 'none'] as const satisfies TUrgency[];
export const rankOf = (u: TUrgency): number => URGENCIES_BY_RANK.indexOf(u);

/**
 * worklist-triage.ts urgencyOfTriage as SQL over a dicom_instances row and its analysis (left
 * joined): the site's urgent labels are a parameter, so a change an admin makes applies to the
 * next read, stored studies included. An instance without a worked-out triage reads pending.
 * `status`: the row's worklist status (a browser upload has no instance: list-worklist.ts maps
 * its analysis's status).
 */
export function urgencyRankSql(
  urgentLabels: readonly string[],
  status: SQL = sql`${dicomInstances.status}`,
): SQL<number> {
  // No urgent label: nothing is urgent (a high triage score alone never is, issue 42 item 5).
  const urgent = urgentLabels.length
    ? sql`${analyses.calledLabels} && array[${sql.join(
        urgentLabels.map((l) => sql`${l}`),
        sql`, `,
      )}]::text[]`
    : sql`false`;
  return sql<number>`(case
    when ${status} in ('skipped', 'failed') then ${rankOf('none')}
    when ${analyses.triageAssessed} is not true then ${rankOf('pending')}
    when coalesce(${urgent}, false) then ${rankOf('urgent')}
    when coalesce(cardinality(${analyses.calledLabels}), 0) > 0 or coalesce(${analyses.anyUncertain}, false) then ${rankOf('review')}
    else ${rankOf('routine')} end)::int`;
}

/**
 * A claim still held: made, younger than the timeout, and by someone still in the study's team. An
 * older claim, or one by a member who has left or been removed, is free: no timer or clean-up
 * clears it, every read and every claim reads it as none.
 */
export function activeClaimSql(timeoutMinutes: number): SQL<boolean> {
  const d = dicomInstances;
  return sql<boolean>`coalesce(${d.claimedBy} is not null and ${d.claimedAt} > now() - make_interval(mins => ${timeoutMinutes}::int) and ${d.claimedBy} in (select ${teamMembers.userId} from ${teamMembers} where ${teamMembers.teamId} = ${d.teamId}), false)`;
}
