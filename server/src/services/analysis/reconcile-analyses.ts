import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Queue } from 'bullmq';
import { analyses, storedImages } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { resultJobId } from '@contracts/result-job-id.js';
import { enqueueAnalysis, queueReady } from './enqueue-analysis.js';
import { failAnalysis } from './finalize-analysis.js';

export interface TReconcileReport {
  requeued: number;
  failed: number;
}

/**
 * Heals analyses that a crash or a Redis outage left open: one still open after
 * ANALYSIS_STUCK_SECONDS whose job is missing from Redis (lost with a flushed Redis, or never
 * added because the server died between commit and enqueue) is enqueued again under the same
 * job id; one whose job ended failed while no server listened is marked failed. Jobs still
 * waiting or running are left alone.
 */
export async function reconcileAnalyses(opts: AppDeps & { resultQueue: Queue; now?: Date }): Promise<TReconcileReport> {
  const { resultQueue, now = new Date(), ...deps } = opts;
  const report: TReconcileReport = { requeued: 0, failed: 0 };
  if (!queueReady(deps)) return report;
  const cutoff = new Date(now.getTime() - deps.config.ANALYSIS_STUCK_SECONDS * 1000);
  const stuck = await deps.db
    .select({
      id: analyses.id,
      storageKey: storedImages.storageKey,
      mediaType: storedImages.mediaType,
      modelId: analyses.modelId,
    })
    .from(analyses)
    .leftJoin(storedImages, eq(storedImages.id, analyses.imageId))
    .where(and(inArray(analyses.status, ['queued', 'processing']), lt(analyses.updatedAt, cutoff)))
    .orderBy(analyses.createdAt)
    .limit(100);
  for (const a of stuck) {
    const state = await deps.analysisQueue.getJobState(a.id);
    if (state === 'failed') {
      const job = await deps.analysisQueue.getJob(a.id);
      if (await failAnalysis({ ...deps, analysisId: a.id, reason: job?.failedReason ?? 'analysis failed' }))
        report.failed++;
      continue;
    }
    if (state === 'completed' && (await resultQueue.getJobState(resultJobId(a.id))) === 'unknown') {
      // The worker finished but its result never reached us: run it again (idempotent).
      await deps.analysisQueue.remove(a.id).catch(() => 0);
    } else if (state !== 'unknown') {
      continue;
    }
    if (!a.storageKey || !a.mediaType) {
      if (await failAnalysis({ ...deps, analysisId: a.id, reason: 'image missing' })) report.failed++;
      continue;
    }
    // The model the analysis was created for, not whichever is live now.
    const model = a.modelId ? { modelId: a.modelId } : {};
    await enqueueAnalysis({
      ...deps,
      job: { analysisId: a.id, storageKey: a.storageKey, mediaType: a.mediaType, ...model },
    });

    await deps.db
      .update(analyses)
      .set({ updatedAt: new Date(), attempts: sql`${analyses.attempts} + 1` })
      .where(eq(analyses.id, a.id));
    deps.log.info({ analysisId: a.id }, 'analysis re-enqueued by the reconciler');
    report.requeued++;
  }
  return report;
}
