import { eq, sql } from 'drizzle-orm';
import { reportDeliveries } from '../../../db/schema.js';
import type { AppDeps } from '../../../deps.js';
import { sendReportSr } from '../dicom/send-report-sr.js';
import { loadOruStudy } from '../hl7/load-oru-study.js';
import { sendReportHl7 } from '../hl7/send-report-hl7.js';
import { DeliveryFailedError } from './delivery-failed-error.js';
import { loadDelivery } from './load-delivery.js';

/**
 * One attempt of one delivery (the report-delivery job's work): the attempt counted, the report
 * sent to its destination, the row marked delivered. On failure the reason's code is recorded
 * and DeliveryFailedError thrown for the queue to retry; on the last attempt (`final`) the row
 * is marked failed first, so a report that never arrived says so. Returns false when there was
 * nothing to send (already delivered, or the report is gone).
 */
export async function deliverReport(
  opts: Pick<AppDeps, 'db' | 'config'> & { deliveryId: string; final: boolean },
): Promise<boolean> {
  const { db, deliveryId } = opts;
  const delivered = await loadDelivery({ db, deliveryId });
  if (!delivered) return false;
  await db
    .update(reportDeliveries)
    .set({ attempts: sql`${reportDeliveries.attempts} + 1`, updatedAt: new Date() })
    .where(eq(reportDeliveries.id, deliveryId));
  try {
    if (delivered.delivery.destination === 'hl7') {
      const study = await loadOruStudy({ db, analysisId: delivered.delivery.analysisId });
      await sendReportHl7({ config: opts.config, report: delivered.report, study });
    } else {
      await sendReportSr({ ...opts, delivered });
    }
  } catch (err) {
    const code = err instanceof DeliveryFailedError ? err.code : 'internal error';
    await db
      .update(reportDeliveries)
      .set({ lastError: code, updatedAt: new Date(), ...(opts.final ? { status: 'failed' as const } : {}) })
      .where(eq(reportDeliveries.id, deliveryId));
    throw err instanceof DeliveryFailedError ? err : new DeliveryFailedError(code);
  }
  await db
    .update(reportDeliveries)
    .set({ status: 'delivered', lastError: null, deliveredAt: new Date(), updatedAt: new Date() })
    .where(eq(reportDeliveries.id, deliveryId));
  return true;
}
