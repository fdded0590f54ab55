import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses, dicomInstances } from '../../db/schema.js';
import { spaceRows } from '../data-access/find-owned.js';
import { triageColumns } from './worklist-triage.js';

const BATCH = 200;

/**
 * Works out the triage of a space's studies whose result was stored without it (before migration
 * 0011, or written by hand), so the worklist's SQL ranks them like the rest. The rule lives in
 * TypeScript (triageOf), so this is done here rather than in the migration's SQL; once done, the
 * check is one probe of analyses_triage_missing_idx, which holds only such rows.
 */
export async function fillWorklistTriage(opts: { db: TDb; userId: string; teamId: string | null }): Promise<number> {
  const { db, userId, teamId } = opts;
  let filled = 0;
  for (;;) {
    const rows = await db
      .select({ id: analyses.id, result: analyses.result })
      .from(dicomInstances)
      .innerJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
      .where(
        and(spaceRows(dicomInstances, userId, teamId), isNotNull(analyses.result), isNull(analyses.triageAssessed)),
      )
      .limit(BATCH);
    if (rows.length === 0) return filled;
    await db.transaction(async (tx) => {
      for (const r of rows)
        await tx
          .update(analyses)
          .set(triageColumns(r.result))
          .where(and(eq(analyses.id, r.id), isNull(analyses.triageAssessed)));
    });
    filled += rows.length;
  }
}
