import type { AppDeps } from './deps.js';
import { startAnalysisConsumers } from './services/analysis/start-analysis-consumers.js';
import { startAuthSweeper } from './services/auth/purge-expired-auth.js';
import { startReadAuditWriter } from './services/audit/start-read-audit-writer.js';

export interface BackgroundServices {
  close(): Promise<void>;
}

/**
 * Long-running server-side consumers: the analysis-result finalizer, the reconciler that
 * re-enqueues analyses stuck in `queued`, the hourly purge of dead sessions, and the writer that
 * stores read-audit entries behind the request. Registered here
 * so main.ts and tests start the same set.
 */
export function startBackgroundServices(deps: AppDeps): BackgroundServices {
  const started: BackgroundServices[] = [
    startAnalysisConsumers(deps),
    startAuthSweeper(deps),
    startReadAuditWriter(deps),
  ];
  return {
    close: async () => {
      await Promise.all(started.map((s) => s.close()));
    },
  };
}
