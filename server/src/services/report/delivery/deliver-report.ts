import { and, eq, sql } from 'drizzle-orm';
import { reportDeliveries } from '../../../db/schema.js';
import type { AppDeps } from '../../../deps.js';
import { sendReportSr } from '../dicom/send-report-sr.js';
import { loadOruStudy } from '../hl7/load-oru-study.js';
import { controlIdOf, sendReportHl7 } from '../hl7/send-report-hl7.js';
import { DeliveryFailedError } from './delivery-failed-error.js';
import { findForwardableStudy } from './find-forwardable-study.js';
import { loadDelivery } from './load-delivery.js';

/** The code of an attempt the job's own deadline ended (the send had not settled). */
export const JOB_DEADLINE_CODE = 'attempt over its time limit';
/** The code of a delivery whose study may no longer leave the building. */
export const NOT_FORWARDABLE_CODE = 'results may not leave the building';

/** A C-STORE's own timeouts (connect, association, each PDU) are 10-30 s; the job allows this in all. */
const SR_JOB_DEADLINE_MS = 120_000;

/**
 * The hard limit on one attempt (issue 46 H2): the HL7 exchange has its own absolute deadline,
 * this one holds whatever else hangs (the database, a peer the DIMSE client waits on), so no
 * attempt keeps a slot of the delivery worker.
 */
export const jobDeadlineMs = (config: AppDeps['config'], destination: 'hl7' | 'dicom'): number =>
  destination === 'hl7' ? config.REPORT_HL7_TIMEOUT_MS + 5_000 : SR_JOB_DEADLINE_MS;

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryFailedError(JOB_DEADLINE_CODE)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * One attempt of one delivery (the report-delivery job's work): checked again against the rule
 * for what leaves the building (a listing revoked since signing marks it failed, nothing sent),
 * sent within the job's deadline, and its outcome recorded with the attempt it counts, so the
 * API never shows an attempt without its reason: delivered, or the failure's code (and on the
 * last attempt, `final`, status failed) with DeliveryFailedError thrown for the queue to retry.
 * Returns false when there was nothing to send (already delivered, or the report is gone).
 */
export async function deliverReport(
  opts: Pick<AppDeps, 'db' | 'config'> & { deliveryId: string; final: boolean },
): Promise<boolean> {
  const { db, config, deliveryId } = opts;
  const delivered = await loadDelivery({ db, deliveryId });
  if (!delivered) return false;
  const { destination, analysisId } = delivered.delivery;
  const pending = and(eq(reportDeliveries.id, deliveryId), eq(reportDeliveries.status, 'pending'));
  if (!(await findForwardableStudy({ db, analysisId }))) {
    await db
      .update(reportDeliveries)
      .set({ status: 'failed', lastError: NOT_FORWARDABLE_CODE, updatedAt: new Date() })
      .where(pending);
    return false;
  }
  const send = async () => {
    if (destination === 'hl7') {
      const study = await loadOruStudy({ db, config, analysisId });
      await sendReportHl7({ config, report: delivered.report, study, controlId: controlIdOf(deliveryId) });
    } else {
      await sendReportSr({ ...opts, delivered });
    }
  };
  try {
    await withDeadline(send(), jobDeadlineMs(config, destination));
  } catch (err) {
    const code = err instanceof DeliveryFailedError ? err.code : 'internal error';
    await db
      .update(reportDeliveries)
      .set({
        attempts: sql`${reportDeliveries.attempts} + 1`,
        lastError: code,
        updatedAt: new Date(),
        ...(opts.final ? { status: 'failed' as const } : {}),
      })
      .where(pending);
    throw err instanceof DeliveryFailedError ? err : new DeliveryFailedError(code);
  }
  await db
    .update(reportDeliveries)
    .set({
      attempts: sql`${reportDeliveries.attempts} + 1`,
      status: 'delivered',
      lastError: null,
      deliveredAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(reportDeliveries.id, deliveryId));
  return true;
}
