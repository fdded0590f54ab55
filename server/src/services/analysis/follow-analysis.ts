import type { AppDeps } from '../../deps.js';
import type { TAnalysisEvent } from '@contracts/queues.js';
import { TERMINAL_STATUSES, type TAnalysisStatus, type TProgressEvent } from '@contracts/schemas/analysis.js';
import { analysisEventHub } from '@common/publish-analysis-event.js';
import { getOwnedAnalysis } from './get-analysis.js';

/** The DB is re-read this often too, in case a pub/sub message was lost (Redis restart). */
const POLL_MS = 1000;

const statusOfStage = (stage: TAnalysisEvent['stage']): TAnalysisStatus =>
  stage === 'done' ? 'completed' : stage === 'refused' ? 'refused' : stage === 'failed' ? 'failed' : stage === 'queued' ? 'queued' : 'processing';

const stageOf = (stage: string): TProgressEvent['stage'] =>
  (['queued', 'checking', 'analysing', 'writing', 'done', 'refused', 'failed'] as const).find((s) => s === stage) ?? 'queued';

/**
 * The progress of one of userId's analyses: the current stage first (from the database, or the
 * job's last reported progress while it runs), then every change until done, refused or failed.
 * Ownership is checked before anything is yielded; the iterator ends when `signal` aborts.
 */
export async function* followAnalysis(
  deps: Pick<AppDeps, 'db' | 'redis' | 'config' | 'analysisQueue'>,
  userId: string,
  analysisId: string,
  signal?: AbortSignal,
): AsyncGenerator<TProgressEvent> {
  const first = await getOwnedAnalysis(deps.db, userId, analysisId);
  const pending: TProgressEvent[] = [];
  let wake: (() => void) | null = null;
  const push = (e: TProgressEvent) => {
    pending.push(e);
    wake?.();
  };
  // Subscribe before reading the current state, so nothing between the two is missed.
  const stop = await analysisEventHub(deps.redis, deps.config.QUEUE_PREFIX)
    .listen(analysisId, (e) => push({ analysisId, stage: e.stage, status: statusOfStage(e.stage) }));
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  try {
    let last = await currentProgress(deps, userId, first.id, first.status, first.stage);
    yield last;
    while (!TERMINAL_STATUSES.includes(last.status) && !signal?.aborted) {
      if (pending.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, POLL_MS).unref();
        });
        wake = null;
      }
      let next = pending.shift();
      if (!next) {
        const now = await getOwnedAnalysis(deps.db, userId, analysisId);
        if (!TERMINAL_STATUSES.includes(now.status)) continue;
        next = { analysisId, stage: stageOf(now.stage), status: now.status };
      }
      if (next.stage === last.stage) continue;
      last = next;
      yield last;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stop();
  }
}

async function currentProgress(
  deps: Pick<AppDeps, 'analysisQueue'>,
  _userId: string,
  analysisId: string,
  status: TAnalysisStatus,
  stage: string,
): Promise<TProgressEvent> {
  if (TERMINAL_STATUSES.includes(status)) return { analysisId, stage: stageOf(stage), status };
  // The worker reports its stage as job progress; the DB copy may lag behind by a moment.
  const job = await deps.analysisQueue.getJob(analysisId).catch(() => undefined);
  const progress = job?.progress as { stage?: string } | number | undefined;
  const live = typeof progress === 'object' && progress?.stage ? stageOf(progress.stage) : stageOf(stage);
  return { analysisId, stage: live, status: statusOfStage(live) };
}

/**
 * Waits until an analysis is finished or `timeoutMs` passes; returns its status then. Used by the
 * spec's REST upload, which answers once the report exists.
 */
export async function waitForAnalysis(
  deps: Pick<AppDeps, 'db' | 'redis' | 'config' | 'analysisQueue'>,
  userId: string,
  analysisId: string,
  timeoutMs: number,
): Promise<TAnalysisStatus> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  let status: TAnalysisStatus = 'queued';
  try {
    for await (const e of followAnalysis(deps, userId, analysisId, abort.signal)) status = e.status;
  } finally {
    clearTimeout(timer);
  }
  return status;
}
