import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../../deps.js';
import type { TReport } from '@contracts/schemas/report.js';
import { DeliveryFailedError } from '../delivery/delivery-failed-error.js';
import { buildOru, type TOruStudy } from './build-oru.js';
import { sendMllp } from './send-mllp.js';

const ACCEPTED = new Set(['AA', 'CA']);

/**
 * One attempt to send a signed report to REPORT_HL7_DESTINATION, its own message control id,
 * the ACK checked: AA (or CA) resolves; AE/AR, a refused connection, no ACK within
 * REPORT_HL7_TIMEOUT_MS or an answer that is no ACK throw DeliveryFailedError, and the
 * report-delivery queue tries again with backoff. The ACK's text (MSA-3) is not kept: a RIS
 * may echo the message in it.
 */
export async function sendReportHl7(
  opts: Pick<AppDeps, 'config'> & { report: TReport; study: TOruStudy },
): Promise<void> {
  const { config } = opts;
  const dest = config.REPORT_HL7_DESTINATION;
  if (!dest) throw new DeliveryFailedError('REPORT_HL7_DESTINATION not set');
  const message = buildOru({
    report: opts.report,
    study: opts.study,
    controlId: randomUUID().replace(/-/g, '').slice(0, 20),
    sendingApp: 'CHEST_DOCTOR_AI',
    now: new Date(),
  });
  const ack = await sendMllp({ ...dest, message, timeoutMs: config.REPORT_HL7_TIMEOUT_MS }).catch((err: unknown) => {
    const code = (err as { code?: unknown }).code;
    throw new DeliveryFailedError(typeof code === 'string' ? code : 'no ACK');
  });
  if (!ACCEPTED.has(ack.code)) throw new DeliveryFailedError(`ACK ${ack.code.slice(0, 2) || 'without a code'}`);
}
