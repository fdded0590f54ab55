import { sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { findingFeedback } from '../../db/schema.js';

type TRow = typeof findingFeedback.$inferInsert;

/**
 * One reader's reading of one finding of an analysis, replacing their earlier one: the findings
 * panel (save-feedback.ts) and a signed report's impression changes (save-impression-feedback.ts)
 * both store it this way, so calibration and the drift monitor count them alike.
 */
export async function upsertFindingFeedback(
  db: TDb,
  key: Pick<TRow, 'userId' | 'teamId' | 'chatId' | 'analysisId' | 'finding'>,
  values: Pick<TRow, 'verdict' | 'reading' | 'note' | 'modelVersion' | 'modelProbability' | 'modelCall'>,
): Promise<void> {
  await db
    .insert(findingFeedback)
    .values({ ...key, ...values })
    .onConflictDoUpdate({
      target: [findingFeedback.analysisId, findingFeedback.finding, findingFeedback.userId],
      set: { ...values, updatedAt: sql`now()` },
    });
}
