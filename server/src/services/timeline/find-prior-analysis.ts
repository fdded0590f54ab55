import { and, desc, eq, lt, ne, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses, chats, dicomInstances } from '../../db/schema.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import type { TAnalysisSnapshot } from './compare-results.js';
import { rowAccess } from '../data-access/find-owned.js';

/** The StudyDate tag of the DICOM instance an analysis was made from (none for a browser upload). */
const studyDateOf = (analysisId: typeof analyses.id) =>
  sql<
    string | null
  >`(select nullif(${dicomInstances.tags}->>'StudyDate', '') from ${dicomInstances} where ${dicomInstances.analysisId} = ${analysisId} limit 1)`;

/** A DICOM DA value (YYYYMMDD) as YYYY-MM-DD; anything else is no date. */
export function isoDate(da: string | null | undefined): string | null {
  const m = da ? /^(\d{4})(\d{2})(\d{2})$/.exec(da.trim()) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/**
 * The newest completed analysis of the same patient profile (and account) started before
 * `before`, or null. Refused and failed analyses have no findings to compare; a stored result
 * that no longer parses is skipped the same way. An analysis of the profile that is still
 * running when this one finishes is not a prior: the comparison is made once, at finalize.
 */
export async function findPriorAnalysis(opts: {
  db: TDb;
  userId: string;
  profileId: string;
  analysisId: string;
  createdAt: Date;
}): Promise<TAnalysisSnapshot | null> {
  const { db, ...current } = opts;
  const rows = await db
    .select({
      id: analyses.id,
      chatId: analyses.chatId,
      createdAt: analyses.createdAt,
      result: analyses.result,
      studyDate: studyDateOf(analyses.id),
    })
    .from(analyses)
    .innerJoin(chats, eq(chats.id, analyses.chatId))
    .where(
      and(
        eq(chats.profileId, current.profileId),
        rowAccess(chats, current.userId, 'read'),
        eq(analyses.status, 'completed'),
        lt(analyses.createdAt, current.createdAt),
        ne(analyses.id, current.analysisId),
      ),
    )
    .orderBy(desc(analyses.createdAt), desc(analyses.id))
    .limit(5);
  for (const row of rows) {
    const parsed = ZStoredResult.safeParse(row.result);
    if (parsed.success && parsed.data.gate.accepted)
      return {
        analysisId: row.id,
        chatId: row.chatId,
        createdAt: row.createdAt,
        studyDate: isoDate(row.studyDate),
        result: parsed.data,
      };
  }
  return null;
}
