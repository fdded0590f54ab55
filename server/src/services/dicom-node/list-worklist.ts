import { and, asc, eq, isNotNull, isNull, ne, not, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { analyses, chats, dicomInstances, patientProfiles, reports, studyClaims, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { auditedAccess } from '../audit/audited-access.js';
import { readUrgentLabels } from '../site/get-urgent-findings.js';
import {
  ZWorklistInput,
  type TWorklist,
  type TWorklistInput,
  type TWorklistStatus,
} from '@contracts/schemas/worklist.js';
import { spaceRows } from '../data-access/find-owned.js';
import { resolveSpace } from '../data-access/team-role.js';
import { decodeWorklistCursor, encodeWorklistCursor, type TWorklistPosition } from './worklist-cursor.js';
import { scoreOf } from './worklist-triage.js';
import { markOf } from '../worklist/read-study-state.js';
import { activeClaimSql, rankOf, URGENCIES_BY_RANK, urgencyRankSql, urgentFlagsSql } from './worklist-urgency-sql.js';
import { DICOM_PATIENT_ID_FIELD } from './match-patient-profile.js';
import { signedLeadOf } from '@contracts/signed-lead.js';

export { urgencyOf } from './worklist-triage.js';

type TWorklistDeps = Pick<AppDeps, 'db' | 'config'>;

/**
 * The reading-room worklist: a space's studies (the caller's personal ones from the DICOM network,
 * or a team's for its members: the network's and the films uploaded into the team in the
 * browser), the unread first, most urgent first, then the longest waiting; the done (reviewed or
 * signed) after them in the same order (issue 41). Filtered by status, urgency, reader and review,
 * one keyset page at a time. The urgency is worked out in SQL from each analysis's stored triage
 * and the site's urgent findings as they are now (issue 36 S5), so a filter sees every study.
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

const d = dicomInstances;
const a = analyses;
const c = studyClaims;

/**
 * A study is a dicom_instances row (with its analysis once there is one) or, in a team, an
 * analysis no instance names: a film uploaded in the browser (issue 41: listing instances only
 * left those off). The full join yields both; each column below reads whichever side is there.
 */
const studyId = sql<string>`coalesce(${d.id}, ${a.id})`;
const receivedAt = sql`coalesce(${d.createdAt}, ${a.createdAt})`;
/** A computed timestamp as ISO text (JSON's form: the driver maps only plain columns to Dates). */
const isoOf = (ts: SQL) => sql<string>`to_json(${ts})#>>'{}'`;
/** An upload's status in the worklist's words, from its analysis's. */
const statusSql = sql<TWorklistStatus>`coalesce(${d.status}, case ${a.status} when 'completed' then 'analysed' when 'refused' then 'analysed' when 'failed' then 'failed' else 'queued' end)`;
const tag = (name: string) => sql<string | null>`nullif(${d.tags}->>${name}, '')`;

/** The space's rows: its instances, and in a team the uploads (a personal worklist is the network's only). */
function studiesOf(userId: string, teamId: string | null): SQL {
  const instances = and(isNotNull(d.id), spaceRows(d, userId, teamId))!;
  return teamId ? or(instances, and(isNull(d.id), spaceRows(a, userId, teamId)))! : instances;
}

async function readWorklist(opts: TWorklistDeps & { userId: string; input: TWorklistInput }): Promise<TWorklist> {
  const { db, config, userId } = opts;
  const input = ZWorklistInput.parse(opts.input);
  const after = decodeWorklistCursor(input.cursor);
  const teamId = await resolveSpace({ db, userId, teamId: input.team });
  const { labels, alsoPossible } = await readUrgentLabels({ db, config });
  const rank = urgencyRankSql([...labels], statusSql, alsoPossible);
  // A signed study has no reader any more (issue 49): a claim left on it (made before signing
  // ended claims) is not shown, and 'unclaimed' lists it.
  const signed = and(isNotNull(reports.status), ne(reports.status, 'draft'))!;
  const active = and(
    activeClaimSql(config.WORKLIST_CLAIM_TIMEOUT_MINUTES, sql`coalesce(${d.teamId}, ${a.teamId})`),
    not(signed),
  )!;
  // Done: marked reviewed, or its report signed (issue 41): either leaves the unread part.
  const done = or(isNotNull(c.reviewedAt), signed)!;
  const doneRank = sql<number>`(case when ${done} then 1 else 0 end)::int`;
  const rows = await db
    .select({
      id: studyId,
      instanceId: d.id,
      status: statusSql,
      reason: d.reason,
      modality: d.modality,
      viewPosition: d.viewPosition,
      source: d.source,
      callingAe: d.callingAe,
      receivedAt: isoOf(receivedAt),
      updatedAt: isoOf(sql`coalesce(${d.updatedAt}, ${a.updatedAt})`),
      cursorTs: sql<string>`${receivedAt}::text`,
      rank,
      doneRank,
      chatId: a.chatId,
      leadDisplay: a.leadDisplay,
      leadProbability: a.leadProbability,
      leadCall: a.leadCall,
      urgentFlags: urgentFlagsSql([...labels]),
      patientName: sql<string | null>`coalesce(${patientProfiles.fullName}, ${chats.patient}->>'full_name')`,
      patientId: sql<
        string | null
      >`coalesce(${tag('PatientID')}, ${patientProfiles.customFields}->>${DICOM_PATIENT_ID_FIELD})`,
      accessionNumber: tag('AccessionNumber'),
      studyDate: tag('StudyDate'),
      claimerId: claimer.id,
      claimerName: claimer.name,
      claimedAt: c.claimedAt,
      reviewerId: c.reviewedBy,
      reviewerName: reviewer.name,
      reviewedAt: c.reviewedAt,
      reportStatus: reports.status,
      signedBy: reports.signedByName,
      signedAt: reports.signedAt,
      impression: reports.impression,
    })
    .from(d)
    .fullJoin(a, eq(a.id, d.analysisId))
    .leftJoin(chats, eq(chats.id, a.chatId))
    .leftJoin(patientProfiles, eq(patientProfiles.id, sql`coalesce(${d.profileId}, ${chats.profileId})`))
    .leftJoin(reports, eq(reports.analysisId, a.id))
    .leftJoin(c, eq(c.studyId, studyId))
    .leftJoin(claimer, and(eq(claimer.id, c.claimedBy), active))
    .leftJoin(reviewer, eq(reviewer.id, c.reviewedBy))
    .where(
      and(
        studiesOf(userId, teamId),
        input.statuses?.length ? sql`${statusSql} in ${input.statuses}` : undefined,
        input.urgencies?.length ? sql`${rank} in ${input.urgencies.map(rankOf)}` : undefined,
        readerFilter(input.reader, userId, active),
        input.reviewed === undefined ? undefined : input.reviewed ? done : not(done),
        after ? afterPosition(after, doneRank, rank) : undefined,
      ),
    )
    .orderBy(asc(doneRank), asc(rank), asc(receivedAt), asc(studyId))
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
        // Issue 48: why an Urgent row is (the urgent findings that made it so); empty on any other row.
        urgentBecause:
          urgency === 'urgent'
            ? r.urgentFlags.filter((f) => alsoPossible || f.likely).map((f) => ({ label: f.label, display: f.display }))
            : [],
        patientName: r.patientName,
        patientId: r.patientId,
        accessionNumber: r.accessionNumber,
        studyDate: isoDate(r.studyDate),
        modality: r.modality,
        viewPosition: r.viewPosition,
        source: r.instanceId ? (r.source ?? 'dimse') : 'upload',
        callingAe: r.callingAe,
        chatId: r.chatId,
        claim: markOf(r.claimerId, r.claimerName, r.claimedAt),
        review: markOf(r.reviewerId, r.reviewerName, r.reviewedAt),
        report: r.reportStatus
          ? {
              status: r.reportStatus,
              signedBy: r.signedBy,
              signedAt: r.signedAt?.toISOString() ?? null,
              // Signed: the radiologist's first line leads the row, not the AI's finding (issue 49).
              lead: r.reportStatus !== 'draft' && r.impression ? signedLeadOf(r.impression) : null,
            }
          : null,
        receivedAt: new Date(r.receivedAt).toISOString(),
        updatedAt: new Date(r.updatedAt).toISOString(),
      };
    }),
    nextCursor:
      rows.length > input.limit && last
        ? encodeWorklistCursor({ done: last.doneRank, rank: last.rank, createdAt: last.cursorTs, id: last.id })
        : null,
  };
}

/** A DICOM DA value (YYYYMMDD) as YYYY-MM-DD; anything else is not shown. */
function isoDate(da: string | null): string | null {
  const m = da ? /^(\d{4})(\d{2})(\d{2})$/.exec(da.trim()) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** 'mine': claimed by the caller and not timed out; 'unclaimed': no claim held (a timed-out one is none). */
function readerFilter(reader: 'mine' | 'unclaimed' | 'anyone', userId: string, active: SQL): SQL | undefined {
  if (reader === 'mine') return and(eq(c.claimedBy, userId), active);
  if (reader === 'unclaimed') return not(active);
  return undefined;
}

/** The rows after `p` along (done asc, rank asc, received asc, id asc). */
function afterPosition(p: TWorklistPosition, doneRank: SQL<number>, rank: SQL<number>): SQL {
  return sql`(${doneRank}, ${rank}, ${receivedAt}, ${studyId}) > (${p.done}::int, ${p.rank}::int, ${p.createdAt}::timestamptz, ${p.id}::uuid)`;
}
