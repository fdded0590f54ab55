import { Queue, Worker, type Job } from 'bullmq';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { reportDeliveries } from '../../../db/schema.js';
import type { AppDeps } from '../../../deps.js';
import { QueueName, ZReportDeliveryJob } from '@contracts/queues.js';
import { deliverReport } from './deliver-report.js';
import { DeliveryFailedError } from './delivery-failed-error.js';
import { enqueueReportDeliveries } from './enqueue-report-deliveries.js';

const SWEEP_INTERVAL_MS = 60_000;

/** The code of a delivery whose job failed without recording one: stalled twice (a process died mid-attempt). */
export const LOST_JOB_CODE = 'delivery job stalled or lost';

const lostCode = (reason: string | undefined) =>
  reason && /stalled/i.test(reason) ? LOST_JOB_CODE : 'delivery job failed';

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
 * signature's commit and the queue) and marks failed the pending rows whose job failed for good
 * (out of attempts, or stalled past BullMQ's limit when processes died mid-attempt), keeping
 * their last code, so no row says pending forever (issue 46 H2). Logs carry ids, attempts and
 * codes, never the report.
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
  /** Pending rows whose job has failed for good: failed, their own last code kept. */
  const failFor = async (ids: string[], code: string) => {
    if (!ids.length) return;
    await db
      .update(reportDeliveries)
      .set({
        status: 'failed',
        lastError: sql`coalesce(${reportDeliveries.lastError}, ${code})`,
        updatedAt: new Date(),
      })
      .where(and(inArray(reportDeliveries.id, ids), eq(reportDeliveries.status, 'pending')));
  };
  worker.on('failed', (job, err) => {
    const code = err instanceof DeliveryFailedError ? err.code : 'internal error';
    log.warn(
      { deliveryId: job?.id, destination: job?.name, attempt: job?.attemptsMade, code },
      'report delivery failed',
    );
    const outOfAttempts = job && job.attemptsMade >= (job.opts.attempts ?? 1);
    if (job?.id && (outOfAttempts || /stalled/i.test(err.message)))
      void failFor([job.id], lostCode(err.message)).catch((e: Error) =>
        log.warn({ err: e }, 'delivery not marked failed'),
      );
  });

  const sweep = async () => {
    const pending = await db
      .select({ id: reportDeliveries.id, destination: reportDeliveries.destination })
      .from(reportDeliveries)
      .where(eq(reportDeliveries.status, 'pending'));
    const lost: typeof pending = [];
    const failed = new Map<string, string[]>();
    for (const row of pending) {
      const job = await queue.getJob(row.id);
      const state = job ? await job.getState() : 'unknown';
      // A job that ended without settling its row (it found nothing to send) is not run again.
      const code = state === 'failed' ? lostCode(job?.failedReason) : state === 'completed' ? 'nothing to send' : null;
      if (code) failed.set(code, [...(failed.get(code) ?? []), row.id]);
      else if (!job || state === 'unknown') lost.push(row);
    }
    for (const [code, ids] of failed) await failFor(ids, code);
    await enqueueReportDeliveries({ ...deps, deliveries: lost, queue });
    return lost.length;
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
