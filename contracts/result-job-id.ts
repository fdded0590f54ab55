/**
 * The result job's id for an analysis: one per analysis, so a worker that runs a job twice
 * (a retry after a lost lock, the reconciler) adds the same result job, which BullMQ ignores.
 */
export const resultJobId = (analysisId: string): string => `result-${analysisId}`;
