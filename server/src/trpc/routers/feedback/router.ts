import { z } from 'zod';
import { ZChatIdInput } from '@contracts/schemas/analysis.js';
import { ZFeedbackInput, ZFeedbackList } from '@contracts/schemas/feedback.js';
import { listFeedback } from '../../../services/feedback/list-feedback.js';
import { saveFeedback } from '../../../services/feedback/save-feedback.js';
import { protectedProcedure, router } from '../../trpc.js';

/** Clinician feedback on the findings of an analysed chat (issue 17). */
export const feedbackRouter = router({
  list: protectedProcedure
    .input(ZChatIdInput)
    .output(ZFeedbackList)
    .query(({ ctx, input }) =>
      listFeedback({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, chatId: input.chatId }),
    ),

  save: protectedProcedure
    .input(ZFeedbackInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await saveFeedback({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input });
      return { ok: true as const };
    }),
});
