import { DelayedError, UnrecoverableError, type Job, type Queue } from 'bullmq';
import { ImageNotFoundError } from '@contracts/image-store.js';
import { resultJobOptions, ZShadowJob, ZShadowResultJob } from '@contracts/queues.js';
import { analyseFilm } from '../pipeline/run-pipeline.js';
import type { ModelCache } from '../models/model-cache.js';
import type { WorkerDeps } from '../worker-deps.js';
import { withTimeout } from './process-analysis.js';

/** How long a shadow study steps back while live analyses are running or waiting. */
export const SHADOW_YIELD_MS = 2_000;

/**
 * Runs one shadow model on a study whose live report is already stored (issue 47), on its own
 * queue so that it never holds up a live analysis, and hands the probabilities back on the
 * shadow-result queue (numbers only). Nothing is drawn, no stage is announced: a clinician never
 * sees a shadow run. The model comes from the worker's bounded cache by registry id.
 */
export function createShadowProcessor(
  deps: Pick<WorkerDeps, 'config' | 'images'> & {
    shadowResultQueue: Queue;
    models: ModelCache;
    /** Whether live analyses are running or waiting: a shadow study then waits its turn (SHADOW_YIELD_MS). */
    liveBusy?: () => Promise<boolean>;
    yieldMs?: number;
  },
) {
  return async (job: Job, token?: string): Promise<{ inferenceMs: number }> => {
    const parsed = ZShadowJob.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError('invalid shadow job payload');
    // A shadow study does not start while a live analysis runs or waits: it steps back and is
    // tried again shortly (no attempt spent), so the CPU and memory bandwidth stay the live one's.
    if (deps.liveBusy && (await deps.liveBusy())) {
      await job.moveToDelayed(Date.now() + (deps.yieldMs ?? SHADOW_YIELD_MS), token);
      throw new DelayedError();
    }
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
