import { z } from 'zod';
import { ZChatSendInput, ZChatSendOutput, type TReplyChunk } from '@contracts/schemas/chat.js';
import { followReplyStream, startReplyStream } from '../../../services/chat/reply-streams.js';
import { sendChatMessage } from '../../../services/chat/stream-chat-reply.js';
import { protectedProcedure, router } from '../../trpc.js';
import { appErrorToTrpc } from '../../app-error-to-trpc.js';

/**
 * Follow-up questions on an analysed chat. `send` answers with the whole reply; `ask` starts a
 * streamed reply (the question goes in the POST body, never in a URL) and `onReply` streams its
 * tokens over SSE, then `done` with the stored message ids.
 */
export const chatRouter = router({
  send: protectedProcedure
    .input(ZChatSendInput)
    .output(ZChatSendOutput)
    .mutation(({ ctx, input }) =>
      sendChatMessage({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        chatId: input.chatId,
        query: input.query,
      }),
    ),

  ask: protectedProcedure
    .input(ZChatSendInput)
    .output(z.object({ streamId: z.uuid() }))
    .mutation(({ ctx, input }) =>
      startReplyStream({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        chatId: input.chatId,
        query: input.query,
      }),
    ),

  onReply: protectedProcedure.input(z.object({ streamId: z.string().max(100) })).subscription(async function* ({
    ctx,
    input,
    signal,
  }): AsyncGenerator<TReplyChunk> {
    try {
      yield* followReplyStream(ctx.auth.userId, input.streamId, signal);
    } catch (err) {
      throw appErrorToTrpc(err);
    }
  }),
});
