import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppDeps } from '../../../deps.js';
import type { TReport } from '@contracts/schemas/report.js';
import { buildOru, type TOruStudy } from './build-oru.js';
import { sendMllp } from './send-mllp.js';

const ACCEPTED = new Set(['AA', 'CA']);

/**
 * Sends a signed report to REPORT_HL7_DESTINATION and checks the ACK, trying again (1 s, 2 s,
 * 4 s …) on a refused connection, a timeout or an error ACK, up to REPORT_HL7_ATTEMPTS. Each
 * attempt carries its own message control id. Returns whether the RIS accepted it; false also
 * when no destination is set. Nothing of the report reaches the log.
 */
export async function sendReportHl7(
  opts: Pick<AppDeps, 'config' | 'log'> & { report: TReport; study: TOruStudy; retryBaseMs?: number },
): Promise<boolean> {
  const { config, log } = opts;
  const dest = config.REPORT_HL7_DESTINATION;
  if (!dest) return false;
  for (let attempt = 1; attempt <= config.REPORT_HL7_ATTEMPTS; attempt++) {
    const message = buildOru({
      report: opts.report,
      study: opts.study,
      controlId: randomUUID().replace(/-/g, '').slice(0, 20),
      sendingApp: 'CHEST_DOCTOR_AI',
      now: new Date(),
    });
    try {
      const ack = await sendMllp({ ...dest, message, timeoutMs: config.REPORT_HL7_TIMEOUT_MS });
      if (ACCEPTED.has(ack.code)) return true;
      log.warn({ ackCode: ack.code, attempt }, 'the RIS refused the report (HL7 ACK)');
    } catch (err) {
      log.warn({ err, attempt }, 'could not send the report over HL7');
    }
    if (attempt < config.REPORT_HL7_ATTEMPTS) await sleep((opts.retryBaseMs ?? 1000) * 2 ** (attempt - 1));
  }
  return false;
}
