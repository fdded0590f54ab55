import { and, asc, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { findingFeedback } from '../../db/schema.js';

/**
 * The one query for a clinician's feedback on one analysis, by finding: the feedback list and
 * the export both read it here. Only the author's own rows, since only the chat's owner gives it.
 */
export function listFeedbackRows(opts: { db: TDb; userId: string; analysisId: string }) {
  const { db, userId, analysisId } = opts;
  return db
    .select({
      finding: findingFeedback.finding,
      verdict: findingFeedback.verdict,
      reading: findingFeedback.reading,
      note: findingFeedback.note,
      modelVersion: findingFeedback.modelVersion,
      modelProbability: findingFeedback.modelProbability,
      modelCall: findingFeedback.modelCall,
      updatedAt: findingFeedback.updatedAt,
    })
    .from(findingFeedback)
    .where(and(eq(findingFeedback.analysisId, analysisId), eq(findingFeedback.userId, userId)))
    .orderBy(asc(findingFeedback.finding));
}
