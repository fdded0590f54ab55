import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses, chats, reportAddenda, reports } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { signedLeadOf } from '@contracts/signed-lead.js';
import type { TTimeline, TTimelineEntry } from '@contracts/schemas/timeline.js';
import { auditedAccess } from '../audit/audited-access.js';
import { imageUrlOf } from '../images/image-url.js';
import { getOwnedProfile } from '../profile/get-owned-profile.js';
import { rowAccess } from '../data-access/find-owned.js';
import { isoDate, studyDateOf, studyDayOf } from './study-day-sql.js';

/**
 * Every completed analysis of one of userId's patient profiles, the oldest study first (by its
 * StudyDate, else its upload: issue 49): per finding the probability and call, the CTR when
 * measured, the film's thumbnail URL and, once signed, the radiologist's report. Another account's
 * profile throws the same NOT_FOUND as a missing one (getOwnedProfile); the read is audited.
 */
export function loadTimeline(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  profileId: string;
}): Promise<TTimeline> {
  const { db, userId, profileId } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'profile.timeline',
    objectType: 'patient_profile',
    objectId: profileId,
    work: async () => {
      const profile = await getOwnedProfile({ db, userId, profileId });

      const rows = await db
        .select({
          id: analyses.id,
          chatId: analyses.chatId,
          createdAt: analyses.createdAt,
          modelVersion: analyses.modelVersion,
          result: analyses.result,
          imageId: analyses.imageId,
          studyDate: studyDateOf(analyses.id),
          reportStatus: reports.status,
          impression: reports.impression,
          signedBy: reports.signedByName,
          signedAt: reports.signedAt,
        })
        .from(analyses)
        .innerJoin(chats, eq(chats.id, analyses.chatId))
        // Only a signed report says what the study showed; a draft is the AI's words still.
        .leftJoin(reports, and(eq(reports.analysisId, analyses.id), ne(reports.status, 'draft')))
        .where(and(eq(chats.profileId, profile.id), rowAccess(chats, userId, 'read'), eq(analyses.status, 'completed')))
        .orderBy(asc(studyDayOf(analyses.id, analyses.createdAt)), asc(analyses.createdAt), asc(analyses.id));
      const addenda = await addendaOf(
        db,
        rows.filter((r) => r.reportStatus).map((r) => r.id),
      );
      const labels = new Map<string, string>();
      const entries: TTimelineEntry[] = [];
      for (const row of rows) {
        const parsed = ZStoredResult.safeParse(row.result);
        if (!parsed.success) continue;
        const r = parsed.data;
        for (const f of r.findings) if (!labels.has(f.label)) labels.set(f.label, f.display);
        const ctr = r.anatomy?.ctr ?? null;
        entries.push({
          chat_id: row.chatId,
          analysis_id: row.id,
          created_at: row.createdAt.toISOString(),
          study_date: isoDate(row.studyDate),
          model_version: row.modelVersion ?? r.modelVersion,
          findings: Object.fromEntries(r.findings.map((f) => [f.label, f.probability])),
          calls: Object.fromEntries(r.findings.map((f) => [f.label, f.call])),
          ...(ctr !== null ? { ctr } : {}),
          image_url: imageUrlOf(row.imageId),
          signed_report:
            row.reportStatus && row.impression !== null
              ? {
                  status: row.reportStatus,
                  lead: signedLeadOf(row.impression),
                  impression: row.impression,
                  signed_by: row.signedBy,
                  signed_at: row.signedAt?.toISOString() ?? null,
                  addenda: addenda.get(row.id) ?? [],
                }
              : null,
        });
      }
      return { analyses: entries, labels: [...labels].map(([label, display]) => ({ label, display })) };
    },
    detailsOf: (t) => ({ analyses: t.analyses.length }),
  });
}

/** The signed addenda of the given analyses, oldest first, by analysis. */
async function addendaOf(
  db: TDb,
  analysisIds: string[],
): Promise<Map<string, { text: string; signed_by: string; signed_at: string }[]>> {
  const out = new Map<string, { text: string; signed_by: string; signed_at: string }[]>();
  if (!analysisIds.length) return out;
  const rows = await db
    .select({
      analysisId: reportAddenda.analysisId,
      text: reportAddenda.text,
      signedBy: reportAddenda.signedByName,
      signedAt: reportAddenda.signedAt,
    })
    .from(reportAddenda)
    .where(inArray(reportAddenda.analysisId, analysisIds))
    .orderBy(asc(reportAddenda.signedAt), asc(reportAddenda.id));
  for (const r of rows) {
    const list = out.get(r.analysisId) ?? [];
    list.push({ text: r.text, signed_by: r.signedBy, signed_at: r.signedAt.toISOString() });
    out.set(r.analysisId, list);
  }
  return out;
}
