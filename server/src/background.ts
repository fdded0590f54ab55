import type { AppDeps } from './deps.js';
import { startAnalysisConsumers } from './services/analysis/start-analysis-consumers.js';

export interface BackgroundServices {
  close(): Promise<void>;
}

/**
 * Long-running server-side consumers: the analysis-result finalizer and the reconciler that
 * re-enqueues analyses stuck in `queued`. Registered here so main.ts and tests start the same set.
 */
export function startBackgroundServices(deps: AppDeps): BackgroundServices {
  const started: BackgroundServices[] = [startAnalysisConsumers(deps)];
  return {
    close: async () => {
      await Promise.all(started.map((s) => s.close()));
    },
  };
}
