/** Progress stages shown to the clinician, in order: the one list server, worker and client use. */
export const AnalysisStage = ['queued', 'checking', 'analysing', 'writing', 'done', 'refused', 'failed'] as const;
export type TAnalysisStage = (typeof AnalysisStage)[number];

/** The stages that end an analysis: a terminal event carries how it ended (and refused/failed their reason). */
export type TTerminalStage = Extract<TAnalysisStage, 'done' | 'refused' | 'failed'>;

export function isTerminalStage(stage: TAnalysisStage): stage is TTerminalStage {
  return stage === 'done' || stage === 'refused' || stage === 'failed';
}

/** A stage stored as text (the analyses row, the history list): unknown text reads as 'queued'. */
export function toAnalysisStage(text: string): TAnalysisStage {
  return AnalysisStage.find((s) => s === text) ?? 'queued';
}
