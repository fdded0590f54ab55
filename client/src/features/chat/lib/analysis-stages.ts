import { AnalysisStage, type TAnalysisStage } from '@contracts/analysis-stage.js';

/** The stages the checklist shows: every stage but the two failures (contracts/analysis-stage.ts). */
type TProgressStep = Exclude<TAnalysisStage, 'refused' | 'failed'>;

/** How the clinician reads each stage; a stage added to the contract must be named here (tsc). */
const STEP_LABELS: Record<TProgressStep, string> = {
  queued: 'Queued',
  checking: 'Checking image',
  analysing: 'Analysing',
  writing: 'Writing report',
  done: 'Done',
};

const isStep = (stage: TAnalysisStage): stage is TProgressStep => stage !== 'refused' && stage !== 'failed';

/** The checklist, in the contract's order. */
export const PROGRESS_STEPS: readonly { stage: TProgressStep; label: string }[] = AnalysisStage.filter(isStep).map(
  (stage) => ({ stage, label: STEP_LABELS[stage] }),
);

/** The analysis toasts the client adds to the contract's (its failure text is ANALYSIS_MESSAGES.failed). */
export const ANALYSIS_TOASTS = {
  completed: 'Analysis completed! You can now continue the conversation below.',
} as const;

/** Index of a stage in PROGRESS_STEPS; -1 for the terminal failures. */
export function stepIndex(stage: TAnalysisStage): number {
  return PROGRESS_STEPS.findIndex((s) => s.stage === stage);
}
