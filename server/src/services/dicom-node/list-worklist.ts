import { desc, eq } from 'drizzle-orm';
import { analyses, dicomInstances, patientProfiles } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { auditedAccess } from '../audit/audited-access.js';
import { SUMMARY_LABEL } from '../analysis/anatomy-text.js';
import { readUrgentLabels } from '../site/get-urgent-findings.js';
import { isCalled } from '@contracts/finding-call.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { ZWorklistInput, type TUrgency, type TWorklistInput, type TWorklistItem } from '@contracts/schemas/worklist.js';
import { spaceRows } from '../data-access/find-owned.js';
import { resolveSpace } from '../data-access/team-role.js';

const RANK: Record<TUrgency, number> = { urgent: 0, review: 1, routine: 2, pending: 3, none: 4 };

/**
 * Urgency of one analysed study from its shipped findings (whatever the manifest ships; a
 * withdrawn output is none of them). Urgent: a positive call, or a called finding (positive or
 * possible) the site made urgent; review: any other called or uncertain finding; routine: none.
 * The lead is the called finding a radiologist would name first: the most probable one, the
 * summary score left out (null: "No finding called"); the score (sort key) is its probability.
 */
export function urgencyOf(
  result: unknown,
  status: TWorklistItem['status'],
  urgentLabels: ReadonlySet<string> = new Set(),
): Pick<TWorklistItem, 'urgency' | 'score' | 'lead'> {
  if (status === 'skipped' || status === 'failed') return { urgency: 'none', score: null, lead: null };
  const parsed = result ? ZStoredResult.safeParse(result) : null;
  if (!parsed?.success || !parsed.data.gate.accepted || parsed.data.findings.length === 0)
    return { urgency: 'pending', score: null, lead: null };
  const findings = parsed.data.findings;
  const called = findings.filter((f) => isCalled(f.call));
  const urgency = called.some((f) => f.call === 'positive' || urgentLabels.has(f.label))
    ? 'urgent'
    : called.length > 0 || findings.some((f) => f.call === 'uncertain')
      ? 'review'
      : 'routine';
  const named = called.filter((f) => f.label !== SUMMARY_LABEL);
  const lead = (named.length ? named : called).reduce<(typeof called)[number] | null>(
    (a, b) => (!a || b.probability > a.probability ? b : a),
    null,
  );
  return {
    urgency,
    score: lead ? Number(lead.probability.toFixed(4)) : null,
    lead: lead && { display: lead.display, probability: lead.probability, call: lead.call },
  };
}

/**
 * The reading-room worklist: the caller's studies from the DICOM network (only theirs), most
 * urgent first (urgency, then the lead finding's probability, then newest),
 * optionally filtered by status and urgency.
 */
export async function listWorklist(
  opts: Pick<AppDeps, 'db'> & { meta: RequestMeta | null; userId: string; input: TWorklistInput },
): Promise<{ items: TWorklistItem[] }> {
  const { db, meta, userId } = opts;
  // Patient names are shown: every read is in the audit log (behind the answer, as history reads).
  return auditedAccess({
    db,
    meta,
    userId,
    action: 'worklist.list',
    objectType: 'dicom_instance',
    work: () => readWorklist({ db, userId, input: opts.input }),
  });
}

async function readWorklist(opts: Pick<AppDeps, 'db'> & { userId: string; input: TWorklistInput }) {
  const { db, userId } = opts;
  const input = ZWorklistInput.parse(opts.input);
  const teamId = await resolveSpace({ db, userId, teamId: input.team });
  const { labels: urgentLabels } = await readUrgentLabels({ db });
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
      chatId: analyses.chatId,
      result: analyses.result,
      patientName: patientProfiles.fullName,
    })
    .from(dicomInstances)
    .leftJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
    .leftJoin(patientProfiles, eq(patientProfiles.id, dicomInstances.profileId))
    .where(spaceRows(dicomInstances, userId, teamId))
    .orderBy(desc(dicomInstances.createdAt))
    .limit(1000);
  const items: TWorklistItem[] = rows.map((r) => ({
    id: r.id,
    status: r.status,
    reason: r.reason,
    ...urgencyOf(r.result, r.status, urgentLabels),
    patientName: r.patientName,
    modality: r.modality,
    viewPosition: r.viewPosition,
    source: r.source,
    callingAe: r.callingAe,
    chatId: r.chatId,
    receivedAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
  const kept = items.filter(
    (i) =>
      (!input.statuses?.length || input.statuses.includes(i.status)) &&
      (!input.urgencies?.length || input.urgencies.includes(i.urgency)),
  );
  kept.sort(
    (a, b) =>
      RANK[a.urgency] - RANK[b.urgency] ||
      (b.score ?? -Infinity) - (a.score ?? -Infinity) ||
      b.receivedAt.localeCompare(a.receivedAt),
  );
  return { items: kept.slice(0, input.limit) };
}
