import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queue } from 'bullmq';
import { analyses, dicomInstances } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { resultsForwardable } from './results-forwardable.js';

export const ANALYSIS_FAILED_REASON = 'The analysis failed';

/**
 * Moves queued network instances on once their analysis has ended: completed → analysed (and
 * its results queued for the destination when one is configured and resultsForwardable says
 * they may go there), refused by the gate → skipped with the gate's reason (and, on the same
 * terms, its "not analysed" SR queued, so the reader at the PACS is not left waiting), failed →
 * failed. Safe to run at any time and twice: each
 * update only matches a row still queued. Returns how many rows moved.
 */
export async function advanceInstances(
  opts: Pick<AppDeps, 'db' | 'config'> & { sendQueue: Queue | null; analysisId?: string },
): Promise<number> {
  const { db, config, sendQueue, analysisId } = opts;
  const rows = await db
    .select({
      id: dicomInstances.id,
      status: analyses.status,
      result: analyses.result,
      forward: sql<boolean>`${resultsForwardable(db)}`,
    })
    .from(dicomInstances)
    .innerJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
    .where(
      and(
        eq(dicomInstances.status, 'queued'),
        inArray(analyses.status, ['completed', 'refused', 'failed']),
        analysisId ? eq(analyses.id, analysisId) : undefined,
      ),
    )
    .limit(500);
  let moved = 0;
  for (const row of rows) {
    const next =
      row.status === 'completed'
        ? { status: 'analysed' as const, reason: null }
        : row.status === 'refused'
          ? { status: 'skipped' as const, reason: refusalOf(row.result) }
          : { status: 'failed' as const, reason: ANALYSIS_FAILED_REASON };
    const [updated] = await db
      .update(dicomInstances)
      .set({ ...next, updatedAt: new Date() })
      .where(and(eq(dicomInstances.id, row.id), eq(dicomInstances.status, 'queued')))
      .returning({ id: dicomInstances.id });
    if (!updated) continue;
    moved += 1;
    if (row.status !== 'failed' && row.forward && sendQueue && config.DICOM_DESTINATION)
      await sendQueue.add('send', { instanceId: row.id }, { ...sendJobOptions(config), jobId: `send-${row.id}` });
  }
  return moved;
}

export function sendJobOptions(config: AppDeps['config']) {
  return {
    attempts: config.DICOM_SEND_ATTEMPTS,
    backoff: { type: 'exponential', delay: config.DICOM_SEND_BACKOFF_MS },
    removeOnComplete: { count: 1000, age: 24 * 3600 },
    removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
  } as const;
}

/** The gate's reason (a fixed text from the pipeline), or a generic one. */
function refusalOf(result: unknown): string {
  const parsed = ZStoredResult.safeParse(result);
  const reason = parsed.success ? parsed.data.gate.reason : null;
  return `Not analysed: ${reason ?? 'the image was not accepted as a chest radiograph'}`;
}
