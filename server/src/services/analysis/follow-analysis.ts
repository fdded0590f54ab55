import type { AppDeps } from '../../deps.js';
import { AnalysisStage, toAnalysisStage } from '@contracts/analysis-stage.js';
import type { TAnalysisEvent } from '@contracts/queues.js';
import {
  statusOfStage,
  TERMINAL_STATUSES,
  type TAnalysisStatus,
  type TAnalysisView,
  type TProgressEvent,
} from '@contracts/schemas/analysis.js';
import { analysisEventHub } from './analysis-event-hub.js';
import { getOwnedAnalysis, getOwnedAnalysisInSpace } from './get-analysis.js';

type TFollowDeps = Pick<AppDeps, 'db' | 'redis' | 'config'>;

const rank = (stage: TProgressEvent['stage']) => AnalysisStage.indexOf(stage);

const fromEvent = (e: TAnalysisEvent): TProgressEvent => ({
  analysisId: e.analysisId,
  stage: e.stage,
  status: statusOfStage(e.stage),
  ...(e.message ? { message: e.message } : {}),
});

const fromView = (v: TAnalysisView): TProgressEvent => ({
  analysisId: v.id,
  stage: toAnalysisStage(v.stage),
  status: v.status,
  ...(v.error ? { message: v.error } : {}),
});

/**
 * The progress of one of userId's analyses: the stored stage first, then each event from the
 * pub/sub channel until done, refused or failed (those carry the message to show). The database
 * is read once, after subscribing so nothing in between is missed, and again only if the
 * subscriber connection dropped (events published meanwhile are lost); nothing polls.
 * Ownership is checked before anything is yielded; the iterator ends when `signal` aborts.
 * A team's analysis re-checks access before each event it passes on (one read per stage), so a
 * member removed from the team stops receiving at once, whichever process served the removal:
 * the iterator then throws the same NOT_FOUND as for a foreign id.
 */
export async function* followAnalysis(
  opts: TFollowDeps & { userId: string; analysisId: string; signal?: AbortSignal },
): AsyncGenerator<TProgressEvent> {
  const { db, redis, config, userId, analysisId, signal } = opts;
  const pending: TProgressEvent[] = [];
  let wake: (() => void) | null = null;
  const push = (e: TProgressEvent) => {
    pending.push(e);
    wake?.();
  };
  const reread = () => {
    getOwnedAnalysis({ db, userId, analysisId }).then(
      (v) => push(fromView(v)),
      () => undefined,
    );
  };
  const stop = await analysisEventHub({ redis, prefix: config.QUEUE_PREFIX }).listen(analysisId, {
    onEvent: (e) => push(fromEvent(e)),
    onResync: reread,
  });
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  try {
    const first = await getOwnedAnalysisInSpace({ db, userId, analysisId });
    let last = fromView(first.view);
    yield last;
    while (!TERMINAL_STATUSES.includes(last.status) && !signal?.aborted) {
      if (pending.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
      const next = pending.shift();
      // A re-read can repeat the stage already sent or lag behind an event, and a retried job
      // starts over: the clinician only sees the stages move forward.
      if (!next || rank(next.stage) <= rank(last.stage)) continue;
      if (first.teamId) await getOwnedAnalysis({ db, userId, analysisId });
      last = next;
      yield last;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stop();
  }
}

/**
 * Waits until an analysis is finished or `timeoutMs` passes; returns its status then. Used by the
 * spec's REST upload, which answers once the report exists.
 */
export async function waitForAnalysis(
  opts: TFollowDeps & { userId: string; analysisId: string; timeoutMs: number },
): Promise<TAnalysisStatus> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs);
  let status: TAnalysisStatus = 'queued';
  try {
    for await (const e of followAnalysis({ ...opts, signal: abort.signal })) status = e.status;
  } finally {
    clearTimeout(timer);
  }
  return status;
}
