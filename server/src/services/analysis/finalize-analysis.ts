import { and, eq, inArray } from 'drizzle-orm';
import { analyses, chats, messages, storedImages } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import type { TAnalysisResultJob } from '@contracts/queues.js';
import { patientOf } from '../history/chat-view.js';
import { withStorageKeyLock } from '../images/storage-key-lock.js';
import { applySiteThresholds } from '../site/apply-site-thresholds.js';
import { compareWithPrior } from '../timeline/compare-with-prior.js';
import { publishAnalysisEvent } from '@common/publish-analysis-event.js';
import { composeFailure, composeReport } from './compose-report.js';
import { wordWorkerResult } from './word-worker-result.js';
import { ageYears } from './anatomy-text.js';
import { analysisErrorOf } from './get-analysis.js';
import { withholdByAge } from './withhold-by-age.js';
import { keepFlaggedHeatmaps } from './keep-flagged-heatmaps.js';
import { triageColumns } from '../dicom-node/worklist-triage.js';
import { ensureReportDraft } from '../report/ensure-report-draft.js';
import { servedModelDir } from '../models/served-model-dir.js';
import { metricsOfResult } from '../models/read-model-facts.js';

export type TFinalizeOutcome = 'completed' | 'refused' | 'skipped';

const OPEN = ['queued', 'processing'] as const;
type TFinalizeDeps = Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'>;

/**
 * Stores a worker's result: the analysis row, the heatmap image row and the assistant's report,
 * in one transaction, then announces 'done' or 'refused' (with the reason to show). The worker
 * sends codes, not sentences: word-worker-result.ts words them first. Safe to run twice: the
 * status update only matches an analysis that is still open, and the unique index on
 * messages.analysis_id refuses a second report. An analysis deleted meanwhile (its chat was
 * deleted) is skipped.
 */
export async function finalizeAnalysis(opts: TFinalizeDeps & { job: TAnalysisResultJob }): Promise<TFinalizeOutcome> {
  const { db, redis, config, log, job } = opts;
  // The model card figures and the site's thresholds are those of the model that made the result (issue 47).
  const [made] = await db
    .select({ modelId: analyses.modelId })
    .from(analyses)
    .where(eq(analyses.id, job.analysisId))
    .limit(1);
  const modelDir = servedModelDir(config, made?.modelId ?? null);
  const calibrated = await applySiteThresholds({
    db,
    modelDir,
    result: wordWorkerResult(job.result, metricsOfResult(config, made?.modelId, job.result).metrics),
  });
  const [row] = await db
    .select({
      id: analyses.id,
      userId: analyses.userId,
      teamId: analyses.teamId,
      chatId: analyses.chatId,
      status: analyses.status,
      createdAt: analyses.createdAt,
      patient: chats.patient,
      profileId: chats.profileId,
    })
    .from(analyses)
    .innerJoin(chats, eq(chats.id, analyses.chatId))
    .where(eq(analyses.id, job.analysisId))
    .limit(1);
  if (!row || !(OPEN as readonly string[]).includes(row.status)) return 'skipped';
  // Findings validated only in children are withheld unless the patient's age says child; a
  // heatmap is kept for each finding flagged after that and the site's thresholds (issue 42).
  const { result, overlayLabel } = keepFlaggedHeatmaps(
    withholdByAge(calibrated, ageYears(patientOf(row).age)).result,
    job.heatmap ? (job.heatmap.label ?? calibrated.heatmaps[0]?.label ?? null) : null,
  );
  // An overlay drawn for a finding that is withheld or no longer flagged is not attached.
  const heatmapJob = overlayLabel ? job.heatmap : null;
  const status = result.gate.accepted ? 'completed' : 'refused';
  const heatmapLabel = overlayLabel;
  // A team analysis whose author deleted their account meanwhile has no reader to compare for.
  const comparison = row.userId
    ? await compareWithPrior({
        db,
        config,
        userId: row.userId,
        profileId: row.profileId,
        analysisId: row.id,
        createdAt: row.createdAt,
        result,
      })
    : null;
  const report = composeReport(result, patientOf(row), { heatmapLabel, comparison });

  const work = async (tx: typeof db): Promise<boolean> => {
    const [updated] = await tx
      .update(analyses)
      .set({
        status,
        stage: status === 'completed' ? 'done' : 'refused',
        modelVersion: result.modelVersion,
        result: result as unknown as Record<string, unknown>,
        ...triageColumns(result),
        timings: result.timingsMs,
        error: null,
        completedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(analyses.id, row.id), inArray(analyses.status, [...OPEN])))
      .returning({ id: analyses.id });
    if (!updated) return false;
    let heatmapImageId: string | null = null;
    if (heatmapJob) {
      const [img] = await tx
        .insert(storedImages)
        .values({
          userId: row.userId,
          teamId: row.teamId,
          kind: 'heatmap',
          storageKey: heatmapJob.storageKey,
          sha256: heatmapJob.sha256,
          mediaType: heatmapJob.mediaType,
          bytes: heatmapJob.bytes,
          width: heatmapJob.width,
          height: heatmapJob.height,
        })
        .returning({ id: storedImages.id });
      heatmapImageId = img!.id;
      await tx.update(analyses).set({ heatmapImageId }).where(eq(analyses.id, row.id));
    }
    await tx
      .insert(messages)
      .values({
        chatId: row.chatId,
        role: 'assistant',
        content: report.content,
        disease: report.disease,
        imageId: heatmapImageId,
        analysisId: row.id,
      })
      .onConflictDoNothing();
    await tx.update(chats).set({ updatedAt: new Date() }).where(eq(chats.id, row.chatId));
    return true;
  };
  // The heatmap key's lock keeps a concurrent image clean-up from deleting the file under us.
  const done = heatmapJob
    ? await withStorageKeyLock({ db, storageKey: heatmapJob.storageKey, work })
    : await db.transaction((tx) => work(tx as unknown as typeof db));
  if (!done) return 'skipped';
  // The radiology report's draft (issue 41), before 'done' goes out so a reader opening the study finds it.
  if (status === 'completed')
    await ensureReportDraft({ db, config, analysisId: row.id }).catch((err: Error) =>
      log.warn({ err }, 'could not draft the report'),
    );
  const message = analysisErrorOf(status, result);
  await publishAnalysisEvent(redis, config.QUEUE_PREFIX, {
    analysisId: row.id,
    chatId: row.chatId,
    stage: status === 'completed' ? 'done' : 'refused',
    ...(message ? { message } : {}),
  }).catch((err: Error) => log.warn({ err }, 'could not publish analysis event'));
  return status;
}

/**
 * Ends an analysis whose job will never succeed: status failed and the spec's failure message
 * as the assistant's answer (once). Returns false when it was already finished.
 */
export async function failAnalysis(opts: TFinalizeDeps & { analysisId: string; reason: string }): Promise<boolean> {
  const { db, redis, config, log, analysisId, reason } = opts;
  const report = composeFailure();
  const chatId = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(analyses)
      .set({
        status: 'failed',
        stage: 'failed',
        error: reason.slice(0, 500),
        completedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(analyses.id, analysisId), inArray(analyses.status, [...OPEN])))
      .returning({ chatId: analyses.chatId });
    if (!updated) return null;
    await tx
      .insert(messages)
      .values({ chatId: updated.chatId, role: 'assistant', content: report.content, analysisId })
      .onConflictDoNothing();
    return updated.chatId;
  });
  if (!chatId) return false;
  await publishAnalysisEvent(redis, config.QUEUE_PREFIX, {
    analysisId,
    chatId,
    stage: 'failed',
    message: analysisErrorOf('failed', null)!,
  }).catch((err: Error) => log.warn({ err }, 'could not publish analysis event'));
  return true;
}
