import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import { ImageNotFoundError } from '@contracts/image-store.js';
import { resultJobOptions, ZShadowJob, ZShadowResultJob } from '@contracts/queues.js';
import { analyseFilm } from '../pipeline/run-pipeline.js';
import type { ModelCache } from '../models/model-cache.js';
import type { WorkerDeps } from '../worker-deps.js';
import { withTimeout } from './process-analysis.js';

/**
 * Runs one shadow model on a study whose live report is already stored (issue 47), on its own
 * queue so that it never holds up a live analysis, and hands the probabilities back on the
 * shadow-result queue (numbers only). Nothing is drawn, no stage is announced: a clinician never
 * sees a shadow run. The model comes from the worker's bounded cache by registry id.
 */
export function createShadowProcessor(
  deps: Pick<WorkerDeps, 'config' | 'images'> & { shadowResultQueue: Queue; models: ModelCache },
) {
  return async (job: Job): Promise<{ inferenceMs: number }> => {
    const parsed = ZShadowJob.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError('invalid shadow job payload');
    const { analysisId, modelId, storageKey, viewPosition } = parsed.data;
    let image: Buffer;
    try {
      image = await deps.images.get(storageKey);
    } catch (err) {
      if (err instanceof ImageNotFoundError) throw new UnrecoverableError('image missing from storage');
      throw err;
    }
    const model = await deps.models.get(modelId);
    const t0 = performance.now();
    const { result } = await withTimeout(
      analyseFilm(image, model, { viewPosition: viewPosition ?? null }),
      deps.config.ANALYSIS_TIMEOUT_MS,
    );
    const inferenceMs = Math.round((performance.now() - t0) * 100) / 100;
    const payload = ZShadowResultJob.parse({
      analysisId,
      modelId,
      modelVersion: result.modelVersion,
      probabilities: result.gate.accepted
        ? Object.fromEntries(result.findings.map((f) => [f.label, f.probability]))
        : null,
      thresholds: Object.fromEntries(model.findings.map((f) => [f.label, f.threshold])),
      inferenceMs,
      rssMb: Math.round((process.memoryUsage().rss / 1024 / 1024) * 10) / 10,
    });
    await deps.shadowResultQueue.add('shadow-result', payload, {
      ...resultJobOptions,
      jobId: `${analysisId}.${modelId}`,
    });
    return { inferenceMs };
  };
}
