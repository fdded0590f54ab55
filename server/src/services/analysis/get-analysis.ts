import { and, desc, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import { auditedAccess } from '../audit/audited-access.js';
import { analyses } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import {
  ANALYSIS_MESSAGES,
  ZStoredResult,
  type TAnalysisStatus,
  type TAnalysisView,
  type TStoredResult,
} from '@contracts/schemas/analysis.js';
import { findOwned, rowAccess } from '../data-access/find-owned.js';
import { isUuid } from '../data-access/is-uuid.js';
import { imageUrlOf } from '../images/image-url.js';

const columns = {
  id: analyses.id,
  chatId: analyses.chatId,
  status: analyses.status,
  stage: analyses.stage,
  modelVersion: analyses.modelVersion,
  result: analyses.result,
  imageId: analyses.imageId,
  heatmapImageId: analyses.heatmapImageId,
  error: analyses.error,
  createdAt: analyses.createdAt,
  completedAt: analyses.completedAt,
};

type TRow = Pick<typeof analyses.$inferSelect, keyof typeof columns>;

/**
 * What the clinician is told about a refused or failed analysis (the view's `error` and the
 * terminal progress event's message): a refusal shows the gate's reason; failure details are
 * internal, so the spec's message instead.
 */
export function analysisErrorOf(status: string, result: Pick<TStoredResult, 'gate'> | null): string | null {
  if (status === 'failed') return ANALYSIS_MESSAGES.failed;
  if (status === 'refused') return result?.gate.reason ?? 'The image could not be analysed';
  return null;
}

function toView(row: TRow): TAnalysisView {
  const parsed = row.result ? ZStoredResult.safeParse(row.result) : null;
  return {
    id: row.id,
    chatId: row.chatId,
    status: row.status as TAnalysisStatus,
    stage: row.stage,
    modelVersion: row.modelVersion,
    result: parsed?.success ? parsed.data : null,
    heatmapUrl: imageUrlOf(row.heatmapImageId),
    imageUrl: imageUrlOf(row.imageId),
    error: analysisErrorOf(row.status, parsed?.success ? parsed.data : null),
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** One analysis of userId's; missing, malformed and foreign ids answer the same NOT_FOUND. */
export async function getOwnedAnalysis(opts: { db: TDb; userId: string; analysisId: string }): Promise<TAnalysisView> {
  return (await getOwnedAnalysisInSpace(opts)).view;
}

/** getOwnedAnalysis, with the team the analysis belongs to (null: its author's personal space). */
export async function getOwnedAnalysisInSpace(opts: {
  db: TDb;
  userId: string;
  analysisId: string;
}): Promise<{ view: TAnalysisView; teamId: string | null }> {
  const row = await findOwned({
    db: opts.db,
    table: analyses,
    id: opts.analysisId,
    userId: opts.userId,
    columns: { ...columns, teamId: analyses.teamId },
    notFound: ANALYSIS_MESSAGES.analysisNotFound,
  });
  return { view: toView(row), teamId: row.teamId };
}

/** The newest analysis of one of userId's chats, or NOT_FOUND (also for a foreign chat). */
export async function getChatAnalysis(opts: { db: TDb; userId: string; chatId: string }): Promise<TAnalysisView> {
  const { db, userId, chatId } = opts;
  if (!isUuid(chatId)) throw new AppError('NOT_FOUND', ANALYSIS_MESSAGES.analysisNotFound);
  const [row] = await db
    .select(columns)
    .from(analyses)
    .where(and(eq(analyses.chatId, chatId), rowAccess(analyses, userId, 'read')))
    .orderBy(desc(analyses.createdAt))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', ANALYSIS_MESSAGES.analysisNotFound);
  return toView(row);
}

/** analysis.get: one analysis, its read recorded in the audit log (ids only). */
export function readAnalysis(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  analysisId: string;
}): Promise<TAnalysisView> {
  const { db, meta, userId, analysisId } = opts;
  return auditedAccess({
    db,
    meta,
    userId,
    action: 'analysis.read',
    objectType: 'analysis',
    objectId: analysisId,
    work: () => getOwnedAnalysis({ db, userId, analysisId }),
  });
}

/** analysis.forChat: a chat's newest analysis, its read recorded in the audit log (ids only). */
export function readChatAnalysis(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  chatId: string;
}): Promise<TAnalysisView> {
  const { db, meta, userId, chatId } = opts;
  return auditedAccess({
    db,
    meta,
    userId,
    action: 'analysis.read',
    objectType: 'chat',
    objectId: chatId,
    work: () => getChatAnalysis({ db, userId, chatId }),
  });
}
