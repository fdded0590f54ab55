import { ZAnalysisIdInput, ZAnalysisView, ZChatIdInput, type TProgressEvent } from '@contracts/schemas/analysis.js';
import { followAnalysis } from '../../../services/analysis/follow-analysis.js';
import { readAnalysis, readChatAnalysis } from '../../../services/analysis/get-analysis.js';
import { protectedProcedure, router } from '../../trpc.js';
import { appErrorToTrpc } from '../../app-error-to-trpc.js';

/**
 * Analyses of the signed-in user. Uploads go through REST (POST /api/chat/upload, multipart,
 * answers {chat_id, analysis_id} at once); the client then follows `onProgress` over SSE.
 */
export const analysisRouter = router({
  /** The newest analysis of a chat (status, structured result, heatmap URL). */
  forChat: protectedProcedure
    .input(ZChatIdInput)
    .output(ZAnalysisView)
    .query(({ ctx, input }) =>
      readChatAnalysis({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, chatId: input.chatId }),
    ),

  /** One analysis (status, structured result, heatmap URL; `error` says why it was refused or failed). */
  get: protectedProcedure
    .input(ZAnalysisIdInput)
    .output(ZAnalysisView)
    .query(({ ctx, input }) =>
      readAnalysis({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, analysisId: input.analysisId }),
    ),

  /** The current stage first, then each change until done, refused or failed. */
  onProgress: protectedProcedure.input(ZAnalysisIdInput).subscription(async function* ({
    ctx,
    input,
    signal,
  }): AsyncGenerator<TProgressEvent> {
    try {
      yield* followAnalysis({ ...ctx.deps, userId: ctx.auth.userId, analysisId: input.analysisId, signal });
    } catch (err) {
      throw appErrorToTrpc(err);
    }
  }),
});
