import { and, desc, eq, inArray, isNotNull, ne, not, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { analyses, dicomInstances, patientProfiles, reports, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { auditedAccess } from '../audit/audited-access.js';
import { readUrgentLabels } from '../site/get-urgent-findings.js';
import { ZWorklistInput, type TWorklist, type TWorklistInput } from '@contracts/schemas/worklist.js';
import { spaceRows } from '../data-access/find-owned.js';
import { resolveSpace } from '../data-access/team-role.js';
import { decodeWorklistCursor, encodeWorklistCursor, type TWorklistPosition } from './worklist-cursor.js';
import { scoreOf } from './worklist-triage.js';
import { markOf } from '../worklist/read-study-state.js';
import { activeClaimSql, rankOf, sortScoreSql, URGENCIES_BY_RANK, urgencyRankSql } from './worklist-urgency-sql.js';

export { urgencyOf } from './worklist-triage.js';

type TWorklistDeps = Pick<AppDeps, 'db' | 'config'>;

/**
 * The reading-room worklist: a space's studies from the DICOM network (the caller's personal ones,
 * or a team's for its members), most urgent first (urgency, then the lead finding's probability,
 * then newest), filtered by status, urgency, reader and review, one keyset page at a time. The
 * urgency is worked out in SQL from each analysis's stored triage and the site's urgent findings
 * as they are now (issue 36 S5), so a filter sees every study, not the newest thousand.
 */
export async function listWorklist(
  opts: TWorklistDeps & { meta: RequestMeta | null; userId: string; input: TWorklistInput },
): Promise<TWorklist> {
  const { db, meta, userId } = opts;
  // Patient names are shown: every read is in the audit log (behind the answer, as history reads).
  return auditedAccess({
    db,
    meta,
    userId,
    action: 'worklist.list',
    objectType: 'dicom_instance',
    work: () => readWorklist({ ...opts, input: opts.input }),
  });
}

const claimer = alias(users, 'claimer');
const reviewer = alias(users, 'reviewer');

async function readWorklist(opts: TWorklistDeps & { userId: string; input: TWorklistInput }): Promise<TWorklist> {
  const { db, config, userId } = opts;
  const input = ZWorklistInput.parse(opts.input);
  const after = decodeWorklistCursor(input.cursor);
  const teamId = await resolveSpace({ db, userId, teamId: input.team });
  const { labels } = await readUrgentLabels({ db, config });
  const rank = urgencyRankSql([...labels]);
  const sortScore = sortScoreSql();
  const active = activeClaimSql(config.WORKLIST_CLAIM_TIMEOUT_MINUTES);
  // Done: marked reviewed, or its report signed (issue 41): either leaves the unread part.
  const done = or(isNotNull(dicomInstances.reviewedAt), and(isNotNull(reports.status), ne(reports.status, 'draft')))!;
  const rows = await db
    .select({
      id: dicomInstances.id,
      status: dicomInstances.status,
      reason: dicomInstances.reason,
      modality: dicomInstances.modality,
      viewPosition: dicomInstances.viewPosition,
      source: dicomInstances.source,
      callingAe: dicomInstances.callingAe,
      createdAt: dicomInstances.createdAt,
      updatedAt: dicomInstances.updatedAt,
      cursorTs: sql<string>`${dicomInstances.createdAt}::text`,
      rank,
      sortScore,
      chatId: analyses.chatId,
      leadDisplay: analyses.leadDisplay,
      leadProbability: analyses.leadProbability,
      leadCall: analyses.leadCall,
      patientName: patientProfiles.fullName,
      claimerId: claimer.id,
      claimerName: claimer.name,
      claimedAt: dicomInstances.claimedAt,
      reviewerId: dicomInstances.reviewedBy,
      reviewerName: reviewer.name,
      reviewedAt: dicomInstances.reviewedAt,
      reportStatus: reports.status,
      signedBy: reports.signedByName,
      signedAt: reports.signedAt,
    })
    .from(dicomInstances)
    .leftJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
    .leftJoin(patientProfiles, eq(patientProfiles.id, dicomInstances.profileId))
    .leftJoin(claimer, and(eq(claimer.id, dicomInstances.claimedBy), active))
    .leftJoin(reviewer, eq(reviewer.id, dicomInstances.reviewedBy))
    .leftJoin(reports, eq(reports.analysisId, dicomInstances.analysisId))
    .where(
      and(
        spaceRows(dicomInstances, userId, teamId),
        input.statuses?.length ? inArray(dicomInstances.status, input.statuses) : undefined,
        input.urgencies?.length ? sql`${rank} in ${input.urgencies.map(rankOf)}` : undefined,
        readerFilter(input.reader, userId, active),
        input.reviewed === undefined ? undefined : input.reviewed ? done : not(done),
        after ? afterPosition(after, rank, sortScore) : undefined,
      ),
    )
    .orderBy(sql`${rank} asc`, sql`${sortScore} desc`, desc(dicomInstances.createdAt), desc(dicomInstances.id))
    .limit(input.limit + 1);

  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => {
      const urgency = URGENCIES_BY_RANK[r.rank] ?? 'pending';
      const scored = urgency === 'urgent' || urgency === 'review' || urgency === 'routine';
      const lead =
        scored && r.leadDisplay !== null && r.leadProbability !== null
          ? { display: r.leadDisplay, probability: r.leadProbability, call: r.leadCall ?? '' }
          : null;
      return {
        id: r.id,
        status: r.status,
        reason: r.reason,
        urgency,
        score: scoreOf(lead?.probability ?? null),
        lead,
        patientName: r.patientName,
        modality: r.modality,
        viewPosition: r.viewPosition,
        source: r.source,
        callingAe: r.callingAe,
        chatId: r.chatId,
        claim: markOf(r.claimerId, r.claimerName, r.claimedAt),
        review: markOf(r.reviewerId, r.reviewerName, r.reviewedAt),
        report: r.reportStatus
          ? { status: r.reportStatus, signedBy: r.signedBy, signedAt: r.signedAt?.toISOString() ?? null }
          : null,
        receivedAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
      };
    }),
    nextCursor:
      rows.length > input.limit && last
        ? encodeWorklistCursor({ rank: last.rank, score: last.sortScore, createdAt: last.cursorTs, id: last.id })
        : null,
  };
}

/** 'mine': claimed by the caller and not timed out; 'unclaimed': no claim held (a timed-out one is none). */
function readerFilter(reader: 'mine' | 'unclaimed' | 'anyone', userId: string, active: SQL<boolean>): SQL | undefined {
  if (reader === 'mine') return and(eq(dicomInstances.claimedBy, userId), active);
  if (reader === 'unclaimed') return not(active);
  return undefined;
}

/** The rows after `p` along (rank asc, score desc, received desc, id desc). */
function afterPosition(p: TWorklistPosition, rank: SQL<number>, sortScore: SQL<number>): SQL {
  return sql`(${rank} > ${p.rank}::int or (${rank} = ${p.rank}::int and (${sortScore} < ${p.score}::float8 or (${sortScore} = ${p.score}::float8 and (${dicomInstances.createdAt}, ${dicomInstances.id}) < (${p.createdAt}::timestamptz, ${p.id}::uuid)))))`;
}
