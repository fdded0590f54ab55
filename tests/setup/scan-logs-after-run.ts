import { E2E_LOG_DIR } from '../helpers/e2e-app.js';
import { scanLogs } from '../helpers/scan-logs.js';

/**
 * Global setup of the projects whose every file starts server/worker processes (e2e apps,
 * fault injection). Its teardown runs after all their files and fails the run when any log
 * under E2E_LOG_DIR names a test patient, or when this run wrote no log there at all: a scan
 * of nothing would pass whatever the processes logged (or wherever they logged it).
 */
export default function setup(): () => Promise<void> {
  // Coarse filesystem timestamps: a log created in the same second still counts as fresh.
  const startedAt = Date.now() - 2000;
  return async () => {
    const r = await scanLogs(E2E_LOG_DIR, startedAt);
    console.log(
      `log scan: ${r.files} log files (${r.freshFiles} from this run), ${(r.bytes / 1024).toFixed(0)} KiB under ${E2E_LOG_DIR}`,
    );
    const failure =
      r.freshFiles === 0
        ? `this run wrote no server or worker log under ${E2E_LOG_DIR}, so the scan proves nothing`
        : r.hits.length > 0
          ? `patient data in logs:\n${r.hits.join('\n')}`
          : null;
    if (!failure) return;
    // vitest only logs an error thrown by a global teardown ("error during close") and still
    // exits 0, so the exit code is set here.
    process.exitCode = 1;
    throw new Error(`log scan: ${failure}`);
  };
}
