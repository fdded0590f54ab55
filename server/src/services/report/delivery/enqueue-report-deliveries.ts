import { Queue } from 'bullmq';
import type { AppDeps } from '../../../deps.js';
import { QueueName, reportDeliveryJobOptions, type TReportDeliveryJob } from '@contracts/queues.js';
import type { TRecordedDelivery } from './record-report-deliveries.js';

/** A destination's attempts and first wait: the RIS's from REPORT_HL7_*, the PACS's from DICOM_SEND_*. */
export function deliveryJobOptions(config: AppDeps['config'], destination: TRecordedDelivery['destination']) {
  return destination === 'hl7'
    ? reportDeliveryJobOptions(config.REPORT_HL7_ATTEMPTS, config.REPORT_HL7_BACKOFF_MS)
    : reportDeliveryJobOptions(config.DICOM_SEND_ATTEMPTS, config.DICOM_SEND_BACKOFF_MS);
}

/**
 * Puts recorded deliveries on the report-delivery queue, the row's id as the job id (adding one
 * twice is a no-op, so the consumer's start-up sweep may add them again). Never throws: the rows
 * are stored, and a queue that was away gets them at the consumer's next sweep.
 */
export async function enqueueReportDeliveries(
  opts: Pick<AppDeps, 'redis' | 'config' | 'log'> & { deliveries: TRecordedDelivery[]; queue?: Queue },
): Promise<void> {
  const { config, deliveries } = opts;
  if (!deliveries.length) return;
  const queue =
    opts.queue ?? new Queue(QueueName.ReportDelivery, { connection: opts.redis, prefix: config.QUEUE_PREFIX });
  queue.on('error', () => undefined);
  try {
    await queue.addBulk(
      deliveries.map((d) => ({
        name: d.destination,
        data: { deliveryId: d.id } satisfies TReportDeliveryJob,
        opts: { ...deliveryJobOptions(config, d.destination), jobId: d.id },
      })),
    );
  } catch (err) {
    opts.log.warn({ err, deliveries: deliveries.map((d) => d.id) }, 'report deliveries not queued yet');
  } finally {
    if (!opts.queue) await queue.close().catch(() => undefined);
  }
}
