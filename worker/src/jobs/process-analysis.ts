import type { Job } from 'bullmq';
import type { WorkerDeps } from '../worker-deps.js';

/**
 * Runs one analysis job: image from storage → pipeline → result job for the server.
 * Filled in by the analysis pipeline (issue 6); until then jobs fail visibly.
 */
export function createAnalysisProcessor(_deps: WorkerDeps) {
  return async (job: Job): Promise<{ status: 'failed' }> => {
    throw new Error(`analysis pipeline not wired yet (job ${job.id ?? '?'})`);
  };
}
