import type { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import { analyses, shadowOutputs, storedImages } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { analysisJobOptions, type TShadowJob, type TShadowResultJob } from '@contracts/queues.js';
import { readRegistryState } from './registry-state.js';

/**
 * After an analysis's live report is stored, one job per shadow model on the shadow queue (ids and
 * the storage key only), so that shadow inference never delays a report: the worker runs them on
 * their own queue. Job id = analysis + model, so a retried finalize adds each once.
 */
export async function enqueueShadowRuns(
  opts: Pick<AppDeps, 'db'> & { shadowQueue: Queue; analysisId: string },
): Promise<number> {
  const { shadows } = await readRegistryState(opts);
  if (shadows.length === 0) return 0;
  const [row] = await opts.db
    .select({ storageKey: storedImages.storageKey, mediaType: storedImages.mediaType, modelId: analyses.modelId })
    .from(analyses)
    .innerJoin(storedImages, eq(storedImages.id, analyses.imageId))
    .where(eq(analyses.id, opts.analysisId))
    .limit(1);
  if (!row) return 0;
  const runs = shadows.filter((id) => id !== row.modelId);
  for (const modelId of runs) {
    const job: TShadowJob = { analysisId: opts.analysisId, modelId, storageKey: row.storageKey, mediaType: row.mediaType };
    await opts.shadowQueue.add('shadow', job, { ...analysisJobOptions, jobId: `${opts.analysisId}.${modelId}` });
  }
  return runs.length;
}

/** Stores a shadow model's outputs apart from the analysis (once per analysis and model). */
export async function storeShadowOutput(opts: Pick<AppDeps, 'db'> & { job: TShadowResultJob }): Promise<void> {
  const { job } = opts;
  // An analysis deleted meanwhile (its chat was) leaves nothing to compare.
  const [exists] = await opts.db
    .select({ id: analyses.id })
    .from(analyses)
    .where(eq(analyses.id, job.analysisId))
    .limit(1);
  if (!exists) return;
  await opts.db
    .insert(shadowOutputs)
    .values({
      analysisId: job.analysisId,
      modelId: job.modelId,
      modelVersion: job.modelVersion,
      probabilities: job.probabilities,
      thresholds: job.thresholds,
      inferenceMs: job.inferenceMs,
      rssMb: job.rssMb,
    })
    .onConflictDoNothing();
}
