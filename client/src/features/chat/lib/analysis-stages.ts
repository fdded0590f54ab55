import { ANALYSIS_MESSAGES as CONTRACT_MESSAGES } from '@contracts/schemas/analysis.js';

/** The worker's progress stages (contracts/analysis-stage.ts AnalysisStage), as the clinician reads them. */
export const PROGRESS_STEPS = [
  { stage: 'queued', label: 'Queued' },
  { stage: 'checking', label: 'Checking image' },
  { stage: 'analysing', label: 'Analysing' },
  { stage: 'writing', label: 'Writing report' },
  { stage: 'done', label: 'Done' },
] as const;

export type TProgressStage = (typeof PROGRESS_STEPS)[number]['stage'] | 'refused' | 'failed';

export const ANALYSIS_MESSAGES = {
  completed: 'Analysis completed! You can now continue the conversation below.',
  failed: CONTRACT_MESSAGES.failed,
  chatFailed: 'Failed to send message. Please try again.',
} as const;

/** Index of a stage in PROGRESS_STEPS; -1 for the terminal failures. */
export function stepIndex(stage: TProgressStage): number {
  return PROGRESS_STEPS.findIndex((s) => s.stage === stage);
}

export const isTerminal = (stage: TProgressStage) => stage === 'done' || stage === 'refused' || stage === 'failed';
