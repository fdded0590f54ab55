import { Queue, Worker, type Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { reportDeliveries } from '../../../db/schema.js';
import type { AppDeps } from '../../../deps.js';
import { QueueName, ZReportDeliveryJob } from '@contracts/queues.js';
import { deliverReport } from './deliver-report.js';
import { DeliveryFailedError } from './delivery-failed-error.js';
import { enqueueReportDeliveries } from './enqueue-report-deliveries.js';

const SWEEP_INTERVAL_MS = 60_000;

export interface ReportDelivery {
  queue: Queue;
  /** Queues every pending delivery again (a no-op for those already queued); the interval runs it too. */
  sweep(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The report-delivery consumer (issue 41), in the server (it owns the database): one job a
 * report_deliveries row, retried with exponential backoff per its destination's settings. The
 * sweep queues rows whose job never made it (Redis away at signing, a restart between the
 * signature's commit and the queue). Logs carry ids, attempts and codes, never the report.
 */
export function startReportDelivery(deps: AppDeps): ReportDelivery {
  const { config, db, log } = deps;
  const prefix = config.QUEUE_PREFIX;
  const queue = new Queue(QueueName.ReportDelivery, { connection: deps.redis, prefix });
  queue.on('error', () => undefined);
  const worker = new Worker(
    QueueName.ReportDelivery,
    async (job: Job) => {
      const { deliveryId } = ZReportDeliveryJob.parse(job.data);
      const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      return deliverReport({ ...deps, deliveryId, final });
    },
    { connection: deps.redis, prefix, concurrency: 2 },
  );
  worker.on('error', (err) => log.warn({ err }, 'report delivery worker connection error'));
  worker.on('failed', (job, err) => {
    const code = err instanceof DeliveryFailedError ? err.code : 'internal error';
    log.warn(
      { deliveryId: job?.id, destination: job?.name, attempt: job?.attemptsMade, code },
      'report delivery failed',
    );
  });

  const sweep = async () => {
    const pending = await db
      .select({ id: reportDeliveries.id, destination: reportDeliveries.destination })
      .from(reportDeliveries)
      .where(eq(reportDeliveries.status, 'pending'));
    await enqueueReportDeliveries({ ...deps, deliveries: pending, queue });
    return pending.length;
  };
  const sweepQuietly = () => void sweep().catch((err: Error) => log.warn({ err }, 'report delivery sweep failed'));
  sweepQuietly();
  const timer = setInterval(sweepQuietly, SWEEP_INTERVAL_MS);
  timer.unref();

  return {
    queue,
    sweep,
    close: async () => {
      clearInterval(timer);
      await Promise.all([worker.close(), queue.close()].map((p) => p.catch(() => undefined)));
    },
  };
}
