import { skipToken } from '@tanstack/react-query';
import { useState } from 'react';
import type { TChatSummary } from '@contracts/schemas/history';
import { trpc } from '../../../lib/trpc';
import { isTerminalStage, toAnalysisStage, type TAnalysisStage } from '@contracts/analysis-stage.js';
import { statusOfStage } from '@contracts/schemas/analysis.js';

/**
 * The chat's newest analysis: its stored view (findings, heatmap, image) and, while it is still
 * queued or running (a reload mid-analysis, another tab), its live stage. The terminal event
 * ends the subscription at once (it says how the analysis ended); the chat, the analysis and the
 * history list are refetched once, for the stored report.
 */
export function useLiveAnalysis(chatId: string, latest: TChatSummary['latestAnalysis']) {
  const analysisId = latest?.id ?? null;
  const utils = trpc.useUtils();
  const view = trpc.analysis.get.useQuery(analysisId ? { analysisId } : skipToken);
  const [stage, setStage] = useState<TAnalysisStage>(() => toAnalysisStage(latest?.stage ?? 'queued'));
  const status = isTerminalStage(stage) ? statusOfStage(stage) : (view.data?.status ?? latest?.status ?? null);
  const running = status === 'queued' || status === 'processing';

  trpc.analysis.onProgress.useSubscription(running && analysisId ? { analysisId } : skipToken, {
    onData: (ev) => {
      setStage(ev.stage);
      if (isTerminalStage(ev.stage)) {
        void Promise.all([
          utils.history.get.invalidate({ chatId }),
          utils.analysis.get.invalidate({ analysisId: ev.analysisId }),
          utils.history.list.invalidate(),
        ]);
      }
    },
  });

  return { view: view.data ?? null, status, running, stage };
}
