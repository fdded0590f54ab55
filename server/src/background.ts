import type { AppDeps } from './deps.js';
import { startAnalysisConsumers } from './services/analysis/start-analysis-consumers.js';
import { startAuthSweeper } from './services/auth/purge-expired-auth.js';
import { startReadAuditWriter } from './services/audit/start-read-audit-writer.js';
import { startDicomServices } from './services/dicom-node/start-dicom-services.js';
import { startModelUploadSweeper } from './services/models/sweep-model-uploads.js';
import { startReportDelivery } from './services/report/delivery/start-report-delivery.js';
import { reportMissingMappedTeams } from './services/sso/report-missing-mapped-teams.js';

export interface BackgroundServices {
  close(): Promise<void>;
}

/**
 * Long-running server-side consumers: the analysis-result finalizer, the reconciler that
 * re-enqueues analyses stuck in `queued`, the hourly purge of dead sessions, and the writer that
 * stores read-audit entries behind the request, the signed reports' deliveries to the RIS
 * and the PACS, and the sweep of model uploads a dead request left behind. Registered here
 * so main.ts and tests start the same set.
 */
export function startBackgroundServices(deps: AppDeps): BackgroundServices {
  const started: BackgroundServices[] = [
    startAnalysisConsumers(deps),
    startAuthSweeper(deps),
    startReadAuditWriter(deps),
    startReportDelivery(deps),
    startModelUploadSweeper(deps),
  ];
  // The DICOM network (issue 24): the node itself only when DICOM_PORT is set. A node that cannot
  // start (port taken, owner unset) is logged and the web app keeps serving.
  const dicom = startDicomServices(deps);
  reportMissingMappedTeams(deps).catch((err: unknown) => deps.log.warn({ err }, 'OIDC_TEAM_MAP not checked at boot'));
  dicom.catch((err: Error) => deps.log.error({ err }, 'DICOM node not started'));
  started.push({ close: () => dicom.then((d) => d.close()).catch(() => undefined) });
  return {
    close: async () => {
      await Promise.all(started.map((s) => s.close()));
    },
  };
}
