import type { AppDeps } from '../../../deps.js';
import type { TReport } from '@contracts/schemas/report.js';
import { DeliveryFailedError } from '../delivery/delivery-failed-error.js';
import { wholeName } from '../split-person-name.js';
import { buildOru, type TOruStudy } from './build-oru.js';
import { ackCodeOf, exchangeMllp, MllpFailedError } from './send-mllp.js';

const ACCEPTED = new Set(['AA', 'CA']);

/**
 * MSH-10 of a delivery (issue 46 L1): derived from its id, so every retry of one delivery carries
 * the same control id and a RIS that filed a slow attempt recognises the next as a duplicate.
 * 20 hexadecimal characters (ST's length in v2.5.1), from the row's random UUID.
 */
export const controlIdOf = (deliveryId: string): string => deliveryId.replace(/-/g, '').slice(0, 20).toUpperCase();

/**
 * One attempt to send a signed report to REPORT_HL7_DESTINATION (exchangeMllp, one absolute
 * deadline of REPORT_HL7_TIMEOUT_MS), the ACK checked: AA (or CA) for this control id resolves;
 * AE/AR, a refused connection, no ACK before the deadline, a close, an unframed, oversized or
 * foreign reply throw DeliveryFailedError with its code, and the report-delivery queue tries
 * again with backoff. The ACK's text (MSA-3) is not kept: a RIS may echo the message in it.
 */
export async function sendReportHl7(
  opts: Pick<AppDeps, 'config'> & { report: TReport; study: TOruStudy; controlId: string },
): Promise<void> {
  const { config } = opts;
  const dest = config.REPORT_HL7_DESTINATION;
  if (!dest) throw new DeliveryFailedError('REPORT_HL7_DESTINATION not set');
  const message = buildOru({
    report: opts.report,
    study: opts.study,
    parties: {
      sendingApp: config.REPORT_HL7_SENDING_APP,
      sendingFacility: config.REPORT_HL7_SENDING_FACILITY,
      receivingApp: config.REPORT_HL7_RECEIVING_APP,
      receivingFacility: config.REPORT_HL7_RECEIVING_FACILITY,
    },
    signer: wholeName(opts.report.signedBy ?? ''),
    controlId: opts.controlId,
    now: new Date(),
  });
  const ack = await exchangeMllp({ ...dest, message, deadlineMs: config.REPORT_HL7_TIMEOUT_MS }).catch(
    (err: unknown) => {
      throw new DeliveryFailedError(err instanceof MllpFailedError ? err.code : 'no ACK');
    },
  );
  const code = ackCodeOf(ack);
  if (!ACCEPTED.has(code)) throw new DeliveryFailedError(`ACK ${code.slice(0, 2) || 'without a code'}`);
}
