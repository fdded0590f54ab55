import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses } from '../../db/schema.js';
import { triageColumns } from './worklist-triage.js';

const BATCH = 200;

/**
 * `npm run db:fill-triage`'s work: the triage columns of every result stored without them (before
 * migration 0011, or restored from an older backup), so the worklist ranks those studies like the
 * rest; until then they read pending. The rule lives in TypeScript (triageOf parses the stored
 * result with its zod schema), which is why this is a one-off command and not SQL in a migration.
 * Results stored since are written with their columns (finalize-analysis.ts). Each batch is one
 * probe of analyses_triage_missing_idx, which holds only such rows; returns how many were filled.
 */
export async function fillMissingTriage(opts: { db: TDb }): Promise<number> {
  const { db } = opts;
  let filled = 0;
  for (;;) {
    const rows = await db
      .select({ id: analyses.id, result: analyses.result })
      .from(analyses)
      .where(and(isNotNull(analyses.result), isNull(analyses.triageAssessed)))
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
