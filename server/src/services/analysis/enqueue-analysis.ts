import type { AppDeps } from '../../deps.js';
import { analysisJobOptions, ZAnalysisJob, type TAnalysisJob } from '@contracts/queues.js';

/** How long an enqueue may take before the upload is answered 503 (Redis unreachable). */
export const ENQUEUE_TIMEOUT_MS = 1000;

/** False when the Redis connection is not up: uploads are refused before doing any work. */
export function queueReady(deps: Pick<AppDeps, 'redis'>): boolean {
  return deps.redis.status === 'ready';
}

/**
 * Adds the analysis job. The job id is the analysis id, so enqueuing twice (the reconciler, a
 * retry) can never run one analysis as two jobs.
 */
export async function enqueueAnalysis(
  opts: Pick<AppDeps, 'analysisQueue' | 'redis'> & { job: TAnalysisJob },
): Promise<void> {
  const data = ZAnalysisJob.parse(opts.job);
  if (!queueReady(opts)) throw new Error('redis not ready');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('enqueue timed out')), ENQUEUE_TIMEOUT_MS);
  });
  try {
    await Promise.race([
      opts.analysisQueue.add('analyse', data, { ...analysisJobOptions, jobId: data.analysisId }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
