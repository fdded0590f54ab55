import { Queue, Worker, type Job } from 'bullmq';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { dicomInstances } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { analysisEventHub } from '../analysis/analysis-event-hub.js';
import { errorLabel } from '@common/serialize-error.js';
import { advanceInstances } from './advance-instances.js';
import { sendResults } from './send-results.js';
import { startDicomNode, type DicomNode } from './start-dicom-node.js';
import { StoreFailedError } from './store-to-peer.js';
import { watchDicomOwner } from './watch-dicom-owner.js';
import { watchTeamAeTitles } from './watch-team-ae-titles.js';

export const DICOM_SEND_QUEUE = 'dicom-send';
const ZSendJob = z.object({ instanceId: z.uuid() });
const ADVANCE_INTERVAL_MS = 5000;
const TERMINAL = new Set(['done', 'refused', 'failed']);

export interface DicomServices {
  node: DicomNode | null;
  sendQueue: Queue;
  /** One pass of the advancer now (tests; the interval and the event listener run it too). */
  advance(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The DICOM network's server-side parts (issue 24): the advancer that moves received
 * instances on when their analysis ends, the send worker that C-STOREs the results to
 * DICOM_DESTINATION with retries and backoff (a failed state once they run out), and the
 * Storage SCP itself when DICOM_PORT is set. All in the server process: it owns the database.
 */
export async function startDicomServices(deps: AppDeps): Promise<DicomServices> {
  const { config, log, db } = deps;
  const prefix = config.QUEUE_PREFIX;
  const sendQueue = new Queue(DICOM_SEND_QUEUE, { connection: deps.redis, prefix });
  sendQueue.on('error', () => undefined);
  const destination = config.DICOM_DESTINATION;
  const where = destination ? `${destination.ae}@${destination.host}:${destination.port}` : '';

  const advance = () => advanceInstances({ db, config, sendQueue });
  let advancing: Promise<number> | null = null;
  const advanceOnce = () => {
    advancing ??= advance()
      .catch((err: Error) => {
        log.warn({ err }, 'dicom advancer pass failed');
        return 0;
      })
      .finally(() => {
        advancing = null;
      });
    return advancing;
  };
  const timer = setInterval(() => void advanceOnce(), ADVANCE_INTERVAL_MS);
  timer.unref();
  const stopListening = await analysisEventHub({ redis: deps.redis, prefix })
    .listenAll({ onEvent: (e) => void (TERMINAL.has(e.stage) ? advanceOnce() : undefined) })
    .catch(() => () => undefined);

  let worker: Worker | null = null;
  if (destination) {
    worker = new Worker(
      DICOM_SEND_QUEUE,
      async (job: Job) => {
        const { instanceId } = ZSendJob.parse(job.data);
        try {
          await sendResults({ ...deps, instanceId });
        } catch (err) {
          const code = err instanceof StoreFailedError ? err.code : errorLabel(err);
          const tries = `${job.attemptsMade + 1} of ${config.DICOM_SEND_ATTEMPTS}`;
          await db
            .update(dicomInstances)
            .set({ reason: `Sending to ${where} failed (${code}), try ${tries}`, updatedAt: new Date() })
            // A refused film keeps the gate's reason: its worklist line says why it was not analysed.
            .where(and(eq(dicomInstances.id, instanceId), eq(dicomInstances.status, 'analysed')));
          throw new Error(`send failed (${code})`, { cause: err });
        }
      },
      { connection: deps.redis, prefix, concurrency: 2 },
    );
    worker.on('error', (err) => log.warn({ err }, 'dicom send worker connection error'));
    worker.on('failed', (job, err) => {
      if (!job) return;
      const instanceId = (job.data as { instanceId?: string }).instanceId;
      log.warn({ instanceId, attempt: job.attemptsMade, err }, 'sending dicom results failed');
      if (job.attemptsMade < (job.opts.attempts ?? 1) || !instanceId) return;
      void db
        .update(dicomInstances)
        .set({
          status: 'failed',
          reason: `Could not send the results to ${where} after ${job.attemptsMade} tries (${err.message})`,
          updatedAt: new Date(),
        })
        .where(and(eq(dicomInstances.id, instanceId), inArray(dicomInstances.status, ['analysed'])))
        .catch((e: Error) => log.warn({ err: e }, 'could not record a failed send'));
    });
  }

  let node: DicomNode | null = null;
  let owner: ReturnType<typeof watchDicomOwner> | null = null;
  let routes: ReturnType<typeof watchTeamAeTitles> | null = null;
  if (config.DICOM_PORT !== undefined) {
    if (!config.DICOM_OWNER_EMAIL) throw new Error('DICOM_PORT is set but DICOM_OWNER_EMAIL is not');
    const started = await startDicomNode(deps);
    node = started;
    // The node listens at once but refuses associations until its owner is proven (issue 36, S11).
    owner = watchDicomOwner({ ...deps, onChange: (userId) => started.setOwner(userId) });
    await owner.check();
    // The teams' AE titles (issue 32), read again every few seconds.
    routes = watchTeamAeTitles({ ...deps, onChange: (table) => started.setRoutes(table) });
    await routes.check();
  }

  return {
    node,
    sendQueue,
    advance: advanceOnce,
    close: async () => {
      clearInterval(timer);
      owner?.stop();
      routes?.stop();
      stopListening();
      await node?.close();
      await Promise.all([worker?.close(), sendQueue.close()].map((p) => p?.catch(() => undefined)));
    },
  };
}
