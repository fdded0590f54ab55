import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QueueName } from '@contracts/queues.js';
import { resultJobId } from '@contracts/result-job-id.js';

/** Where one analysis spent its time between the server's enqueue and the stored report (ms). */
export interface JobTimeline {
  /** Request start → the analysis job is added: multipart read, decode, re-encode, storage, DB transaction. */
  uploadLeg: number;
  /** Added → a worker picks it up. */
  analysisQueueHop: number;
  /** Worker start → worker done (read, pipeline, overlay, result job add). */
  worker: number;
  /** Result job added → the server's finalizer picks it up. */
  resultQueueHop: number;
  /** Finalizer: the DB transaction that stores the analysis, the heatmap row and the report. */
  finalize: number;
  /** Report stored → the waiting HTTP request answers. */
  reply: number;
}

/**
 * Reads the timestamps BullMQ keeps on both jobs of an analysis (job id = analysis id; the
 * result job's id from resultJobId). Clocks: every process runs on this machine, so Date.now()
 * in each is the same clock, to the millisecond.
 */
export function jobTimelineReader(redisUrl: string, prefix: string) {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const analysis = new Queue(QueueName.Analysis, { connection, prefix });
  const result = new Queue(QueueName.AnalysisResult, { connection, prefix });
  return {
    async read(analysisId: string, requestStart: number, requestEnd: number): Promise<JobTimeline | null> {
      const [a, r] = await Promise.all([analysis.getJob(analysisId), result.getJob(resultJobId(analysisId))]);
      if (!a?.processedOn || !a.finishedOn || !r?.processedOn || !r.finishedOn) return null;
      return {
        uploadLeg: a.timestamp - requestStart,
        analysisQueueHop: a.processedOn - a.timestamp,
        worker: a.finishedOn - a.processedOn,
        resultQueueHop: r.processedOn - r.timestamp,
        finalize: r.finishedOn - r.processedOn,
        reply: requestEnd - r.finishedOn,
      };
    },
    async close(): Promise<void> {
      await Promise.all([analysis.close(), result.close()]);
      connection.disconnect();
    },
  };
}
