import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import type { TFeedbackList } from '@contracts/schemas/feedback.js';
import { auditedAccess } from '../audit/audited-access.js';
import { getOwnedChat } from '../history/get-owned-chat.js';
import { findFeedbackAnalysis } from './find-feedback-analysis.js';
import { listFeedbackRows } from './list-feedback-rows.js';

/** The caller's feedback on the chat's newest analysis (the one the findings panel shows). */
export async function listFeedback(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  chatId: string;
}): Promise<TFeedbackList> {
  const { db, meta, userId, chatId } = opts;

  return auditedAccess({
    db,
    meta,
    userId,
    action: 'feedback.read',
    objectType: 'chat',
    objectId: chatId,
    work: async () => {
      const chat = await getOwnedChat({ db, userId, chatId });
      const analysis = await findFeedbackAnalysis({ db, userId, chatId: chat.id });
      if (!analysis) return { analysisId: null, feedback: [] };
      const rows = await listFeedbackRows({ db, userId, analysisId: analysis.id });
      return { analysisId: analysis.id, feedback: rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() })) };
    },
    detailsOf: (r) => ({ entries: r.feedback.length }),
  });
}
