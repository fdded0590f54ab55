import { and, desc, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { ANALYSIS_MESSAGES, ZStoredResult, type TAnalysisStatus, type TAnalysisView } from '@contracts/schemas/analysis.js';
import { isUuid } from '../history/keyset-cursor.js';
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
    // A refusal shows the gate's reason; failure details are internal (the spec's message instead).
    error: row.status === 'failed' ? ANALYSIS_MESSAGES.failed : row.status === 'refused' ? (parsed?.success ? parsed.data.gate.reason : null) ?? 'The image could not be analysed' : null,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** One analysis of userId's; missing, malformed and foreign ids answer the same NOT_FOUND. */
export async function getOwnedAnalysis(db: TDb, userId: string, analysisId: string): Promise<TAnalysisView> {
  if (!isUuid(analysisId)) throw new AppError('NOT_FOUND', ANALYSIS_MESSAGES.analysisNotFound);
  const [row] = await db.select(columns).from(analyses)
    .where(and(eq(analyses.id, analysisId), eq(analyses.userId, userId))).limit(1);
  if (!row) throw new AppError('NOT_FOUND', ANALYSIS_MESSAGES.analysisNotFound);
  return toView(row);
}

/** The newest analysis of one of userId's chats, or NOT_FOUND (also for a foreign chat). */
export async function getChatAnalysis(db: TDb, userId: string, chatId: string): Promise<TAnalysisView> {
  if (!isUuid(chatId)) throw new AppError('NOT_FOUND', ANALYSIS_MESSAGES.analysisNotFound);
  const [row] = await db.select(columns).from(analyses)
    .where(and(eq(analyses.chatId, chatId), eq(analyses.userId, userId)))
    .orderBy(desc(analyses.createdAt)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', ANALYSIS_MESSAGES.analysisNotFound);
  return toView(row);
}
