import { createHash } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import { ImageNotFoundError } from '@contracts/image-store.js';
import type { TAnalysisStage } from '@contracts/analysis-stage.js';
import { resultJobOptions, ZAnalysisJob, ZAnalysisResultJob, type TAnalysisResultJob } from '@contracts/queues.js';
import { publishAnalysisEvent } from '@common/publish-analysis-event.js';
import { resultJobId } from '@contracts/result-job-id.js';
import { contentKey } from '@contracts/image-store.js';
import { analyseFilm, drawOverlay, loadModel, overlayCodingFor, type LoadedModel } from '../pipeline/run-pipeline.js';
import { heatGrid } from '../pipeline/heat-grid.js';
import { overlayHeatmap } from '../pipeline/overlay-finding.js';
import type { WorkerDeps } from '../worker-deps.js';
import { SHIPPED_MODEL_ID } from '@contracts/model/registry.js';
import { createModelCache, type ModelCache } from '../models/model-cache.js';
import { registryDirs } from '../models/registry-dirs.js';

export type TProcessOutcome = {
  status: 'completed' | 'refused';
  topFinding: string | null;
  timingsMs: Record<string, number>;
};

class TimeoutError extends Error {
  override name = 'TimeoutError';
}

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`analysis timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs one analysis job: image from storage → pipeline → heatmap overlay into storage, heat grids → a result
 * job for the server (the worker never opens the database). The result carries codes, not words:
 * a refusal goes back as its code, and the server writes the sentence with the rest of the report. Stages are announced on Redis
 * pub/sub; the terminal one comes from the server once the report is stored. A gate refusal is
 * a normal result; an unreadable image is an UnrecoverableError (no retries); a hung inference
 * fails the attempt after ANALYSIS_TIMEOUT_MS so the worker is free again and BullMQ retries. Running a job twice adds the same result job
 * id, and the server's finalizer writes one report per analysis.
 */
export function createAnalysisProcessor(deps: WorkerDeps, opts: { modelDir?: string; models?: ModelCache } = {}) {
  // Imported models by registry id (issue 47); the shipped one stays on its own path below.
  const models = opts.models ?? createModelCache(registryDirs(deps.config), deps.config.MODEL_MAX_SHADOWS + 1);
  let model: Promise<LoadedModel> | null = null;
  const getModel = (): Promise<LoadedModel> => {
    // Loaded once, lazily; a failed load (model not installed yet) is retried on the next job.
    model ??= loadModel(opts.modelDir ?? deps.config.MODEL_DIR).catch((err: unknown) => {
      model = null;
      throw err;
    });
    return model;
  };

  return async (job: Job): Promise<TProcessOutcome> => {
    const parsed = ZAnalysisJob.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError('invalid analysis job payload');
    const { analysisId, storageKey, mediaType: filmMediaType, viewPosition, modelId } = parsed.data;
    const t0 = performance.now();
    const timings: Record<string, number> = {};
    const lap = (name: string, since: number) => {
      const now = performance.now();
      timings[name] = Math.round(now - since);
      return now;
    };
    // Progress has one source, the pub/sub channel (no job progress): a lost announcement only
    // delays the clinician's checklist, never the analysis.
    const stage = (s: TAnalysisStage) =>
      publishAnalysisEvent(deps.redis, deps.config.QUEUE_PREFIX, { analysisId, stage: s }).catch(() => undefined);

    await stage('checking');
    let image: Buffer;
    try {
      image = await deps.images.get(storageKey);
    } catch (err) {
      if (err instanceof ImageNotFoundError) throw new UnrecoverableError('image missing from storage');
      throw err;
    }
    let t = lap('readMs', t0);
    const loaded = !modelId || modelId === SHIPPED_MODEL_ID ? await getModel() : await models.get(modelId);
    await stage('analysing');
    const { result, film } = await withTimeout(
      testInferenceDelay(deps).then(() => analyseFilm(image, loaded, { viewPosition: viewPosition ?? null })),
      deps.config.ANALYSIS_TIMEOUT_MS,
    );
    t = lap('pipelineMs', t);
    if (!result.gate.accepted && result.gate.code === 'undecodable')
      throw new UnrecoverableError('image could not be decoded');

    await stage('writing');
    const heatmap = overlayHeatmap(result, loaded);
    let stored: TAnalysisResultJob['heatmap'] = null;
    if (heatmap && film) {
      const mediaType = overlayCodingFor(filmMediaType);
      const overlay = await drawOverlay(film, heatmap, mediaType);
      const sha256 = createHash('sha256').update(overlay).digest('hex');
      const key = contentKey(sha256);
      if (!(await deps.images.exists(key))) await deps.images.put(key, overlay, mediaType);
      stored = {
        storageKey: key,
        sha256,
        bytes: overlay.length,
        width: film.width,
        height: film.height,
        mediaType,
        label: heatmap.label,
      };
    }
    t = lap('overlayMs', t);
    // Every finding's heat values as a small grid, the overlay's first: the finalizer keeps those of
    // the findings flagged once the site's thresholds and the patient's age are applied (issue 42).
    const heatmaps = [...result.heatmaps]
      .sort((a, b) => Number(b === heatmap) - Number(a === heatmap))
      .map((h) => ({ label: h.label, width: h.width, height: h.height, grid: heatGrid(h) }));
    lap('heatGridsMs', t);
    lap('workerTotalMs', t0);
    // Checked against the contract here, not only by the finalizer: a drift fails this analysis
    // at once with the offending paths (no values) instead of ten finalize retries later.
    const checked = ZAnalysisResultJob.safeParse({
      analysisId,
      result: {
        // Model 2's anatomy result (CTR, lung box, outlines, flags) and notAssessed list are small
        // and go as they are; model 1 results have neither key.
        ...result,
        heatmaps,
        timingsMs: { ...result.timingsMs, ...timings },
      },
      heatmap: stored,
    });
    if (!checked.success) {
      throw new UnrecoverableError(
        `result breaks the result job contract at ${checked.error.issues.map((i) => i.path.join('.')).join(', ')}`,
      );
    }
    const payload = checked.data;
    await deps.resultQueue.add('result', payload, { ...resultJobOptions, jobId: resultJobId(analysisId) });
    return {
      status: result.gate.accepted ? 'completed' : 'refused',
      topFinding: result.topFinding,
      timingsMs: payload.result.timingsMs,
    };
  };
}

/** The config's CXR_TEST_INFERENCE_DELAY_MS seam (worker-config.ts): honoured only with NODE_ENV=test. */
function testInferenceDelay(deps: WorkerDeps): Promise<void> {
  const v = deps.config.NODE_ENV === 'test' ? deps.config.CXR_TEST_INFERENCE_DELAY_MS : undefined;
  if (!v) return Promise.resolve();
  return new Promise((resolve) => {
    if (v !== 'hang') setTimeout(resolve, v);
  });
}
