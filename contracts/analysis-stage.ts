/** Progress stages shown to the clinician, in order: the one list server, worker and client use. */
export const AnalysisStage = ['queued', 'checking', 'analysing', 'writing', 'done', 'refused', 'failed'] as const;
export type TAnalysisStage = (typeof AnalysisStage)[number];
