import type { AppDeps } from './deps.js';
import { startAnalysisConsumers } from './services/analysis/start-analysis-consumers.js';
import { startAuthSweeper } from './services/auth/purge-expired-auth.js';

export interface BackgroundServices {
  close(): Promise<void>;
}

/**
 * Long-running server-side consumers: the analysis-result finalizer, the reconciler that
 * re-enqueues analyses stuck in `queued`, and the hourly purge of dead sessions. Registered here
 * so main.ts and tests start the same set.
 */
export function startBackgroundServices(deps: AppDeps): BackgroundServices {
  const started: BackgroundServices[] = [startAnalysisConsumers(deps), startAuthSweeper(deps)];
  return {
    close: async () => {
      await Promise.all(started.map((s) => s.close()));
    },
  };
}
