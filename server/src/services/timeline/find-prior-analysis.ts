import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses, chats } from '../../db/schema.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import type { TAnalysisSnapshot } from './compare-results.js';
import { rowAccess } from '../data-access/find-owned.js';
import { isoDate, studyDateOf, studyDayOf } from './study-day-sql.js';

/**
 * The newest completed analysis of the same patient profile (and account) taken before this one,
 * or null: ordered by study day (the StudyDate, else the upload's day), then by upload time within
 * a day (issue 49: a study sent late is still compared by when it was taken). Refused and failed
 * analyses have no findings to compare; a stored result that no longer parses is skipped the same
 * way. An analysis of the profile that is still running when this one finishes is not a prior:
 * the comparison is made once, at finalize.
 */
export async function findPriorAnalysis(opts: {
  db: TDb;
  userId: string;
  profileId: string;
  analysisId: string;
  createdAt: Date;
}): Promise<TAnalysisSnapshot | null> {
  const { db, ...current } = opts;
  const priorDay = studyDayOf(analyses.id, analyses.createdAt);
  const currentDay = studyDayOf(sql`${current.analysisId}::uuid`, sql`${current.createdAt.toISOString()}::timestamptz`);
  const rows = await db
    .select({
      id: analyses.id,
      chatId: analyses.chatId,
      createdAt: analyses.createdAt,
      modelId: analyses.modelId,
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
        sql`(${priorDay}, ${analyses.createdAt}) < (${currentDay}, ${current.createdAt.toISOString()}::timestamptz)`,
        ne(analyses.id, current.analysisId),
      ),
    )
    .orderBy(desc(priorDay), desc(analyses.createdAt), desc(analyses.id))
    .limit(5);
  for (const row of rows) {
    const parsed = ZStoredResult.safeParse(row.result);
    if (parsed.success && parsed.data.gate.accepted)
      return {
        analysisId: row.id,
        chatId: row.chatId,
        createdAt: row.createdAt,
        studyDate: isoDate(row.studyDate),
        modelId: row.modelId,
        result: parsed.data,
      };
  }
  return null;
}
