import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { analyses } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { QueueName, ZAnalysisResultJob, ZShadowResultJob } from '@contracts/queues.js';
import { enqueueShadowRuns, storeShadowOutput } from '../models/run-shadows.js';
import { statusOfStage } from '@contracts/schemas/analysis.js';
import { analysisEventHub } from './analysis-event-hub.js';
import { failAnalysis, finalizeAnalysis, type TFinalizeOutcome } from './finalize-analysis.js';
import { reconcileAnalyses } from './reconcile-analyses.js';
import { errorLabel } from '@common/serialize-error.js';

export interface AnalysisConsumers {
  resultWorker: Worker;
  resultQueue: Queue;
  /** Runs one reconciliation pass now (the interval runs it too). */
  reconcile(): Promise<{ requeued: number; failed: number }>;
  close(): Promise<void>;
}

/**
 * The server side of the analysis flow: the finalizer (a worker on the result queue), the
 * failed-job listener, a tracker that records the worker's stages in the database, and the
 * reconciler on an interval. Only the server holds the database, so all writes happen here.
 */
export function startAnalysisConsumers(deps: AppDeps): AnalysisConsumers {
  const { config, log } = deps;
  const prefix = config.QUEUE_PREFIX;
  const resultQueue = new Queue(QueueName.AnalysisResult, { connection: deps.redis, prefix });
  resultQueue.on('error', () => undefined);
  const shadowQueue = new Queue(QueueName.AnalysisShadow, { connection: deps.redis, prefix });
  shadowQueue.on('error', () => undefined);

  const resultWorker = new Worker(
    QueueName.AnalysisResult,
    async (job: Job): Promise<TFinalizeOutcome> => {
      try {
        const outcome = await finalizeAnalysis({ ...deps, job: ZAnalysisResultJob.parse(job.data) });
        // Shadow models run only once the live report is stored (issue 47): they never delay it.
        if (outcome === 'completed')
          await enqueueShadowRuns({ ...deps, shadowQueue, analysisId: job.data.analysisId as string }).catch(
            (err: Error) => log.warn({ err }, 'could not enqueue shadow runs'),
          );
        return outcome;
      } catch (err) {
        // BullMQ keeps the message in Redis: never let a DB error's parameters (report text) go there.
        throw new Error(`finalize failed (${errorLabel(err)})`, { cause: err });
      }
    },
    { connection: deps.redis, prefix, concurrency: 2 },
  );
  resultWorker.on('error', (err) => log.warn({ err }, 'result worker connection error'));
  resultWorker.on('failed', (job, err) => log.error({ err, jobId: job?.id }, 'finalizing an analysis failed'));

  // A shadow model's outputs, stored apart from the analysis (never shown to a clinician).
  const shadowResultWorker = new Worker(
    QueueName.ShadowResult,
    async (job: Job) => {
      try {
        await storeShadowOutput({ ...deps, job: ZShadowResultJob.parse(job.data) });
      } catch (err) {
        throw new Error(`storing a shadow output failed (${errorLabel(err)})`, { cause: err });
      }
    },
    { connection: deps.redis, prefix, concurrency: 1 },
  );
  shadowResultWorker.on('error', (err) => log.warn({ err }, 'shadow result worker connection error'));
  shadowResultWorker.on('failed', (job, err) => log.warn({ err, jobId: job?.id }, 'storing a shadow output failed'));

  // A job that failed its last attempt (or hit UnrecoverableError) ends the analysis as failed.
  const events = new QueueEvents(QueueName.Analysis, { connection: deps.redis, prefix });
  events.on('error', () => undefined);
  events.on('failed', ({ jobId, failedReason }) => {
    void (async () => {
      const state = await deps.analysisQueue.getJobState(jobId);
      if (state !== 'failed' && state !== 'unknown') return; // a retry is coming
      await failAnalysis({ ...deps, analysisId: jobId, reason: failedReason });
    })().catch((err: Error) => log.warn({ err, jobId }, 'could not record a failed analysis'));
  });

  // The worker cannot write the database. Its running stages are kept on the row because the
  // history list shows a chat's stage after a reload, and a follower's first event is this copy;
  // live followers get the stages from the channel itself.
  const hub = analysisEventHub({ redis: deps.redis, prefix });
  const stopTracking = hub.listenAll({
    onEvent: (e) => {
      if (statusOfStage(e.stage) !== 'processing') return;
      void deps.db
        .update(analyses)
        .set({
          status: 'processing',
          stage: e.stage,
          startedAt: sql`coalesce(${analyses.startedAt}, now())`,
          updatedAt: new Date(),
        })
        .where(and(eq(analyses.id, e.analysisId), inArray(analyses.status, ['queued', 'processing'])))
        .catch((err: Error) => log.warn({ err }, 'could not record an analysis stage'));
    },
  });

  const reconcile = () => reconcileAnalyses({ ...deps, resultQueue });
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    reconcile()
      .catch((err: Error) => log.warn({ err }, 'reconciler pass failed'))
      .finally(() => {
        running = false;
      });
  }, config.ANALYSIS_RECONCILE_INTERVAL_MS);
  timer.unref();

  return {
    resultWorker,
    resultQueue,
    reconcile,
    close: async () => {
      clearInterval(timer);
      (await stopTracking.catch(() => () => undefined))();
      await Promise.all(
        [
          resultWorker.close(),
          shadowResultWorker.close(),
          events.close(),
          resultQueue.close(),
          shadowQueue.close(),
        ].map((p) => p.catch(() => undefined)),
      );
    },
  };
}
