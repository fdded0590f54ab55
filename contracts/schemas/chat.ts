import { z } from 'zod';

/** Follow-up chat: the spec's REST body and the tRPC inputs; messages are the spec's strings. */
export const CHAT_MESSAGES = {
  failed: 'Failed to send message. Please try again.',
  emptyQuery: 'Please enter a question',
  queryTooLong: 'The question is too long',
  chatNotFound: 'Chat not found',
  notReady: 'The analysis of this chat has not finished yet',
} as const;

export const QUERY_MAX = 4000;

const ZChatId = z.string({ error: CHAT_MESSAGES.chatNotFound }).max(100, CHAT_MESSAGES.chatNotFound);
export const ZQuery = z
  .string({ error: CHAT_MESSAGES.emptyQuery })
  .trim()
  .min(1, CHAT_MESSAGES.emptyQuery)
  .max(QUERY_MAX, CHAT_MESSAGES.queryTooLong);

/**
 * `POST /api/chat/chat` `{chat_id, query, history}`. The history the client sends is accepted for
 * compatibility but not trusted: replies are grounded on the messages stored server-side.
 */
export const ZLegacyChatBody = z.object({
  chat_id: ZChatId,
  query: ZQuery,
  history: z
    .array(z.object({ role: z.string().max(20), content: z.unknown() }))
    .max(500)
    .optional(),
});

export const ZChatSendInput = z.object({ chatId: ZChatId, query: ZQuery });
export type TChatSendInput = z.infer<typeof ZChatSendInput>;

export const ZChatSendOutput = z.object({ messageId: z.uuid(), replyId: z.uuid(), response: z.string() });

/** The subscription streams the reply: token chunks, then the stored message id. */
export const ZReplyChunk = z.discriminatedUnion('type', [
  z.object({ type: z.literal('token'), text: z.string() }),
  z.object({ type: z.literal('done'), messageId: z.uuid(), replyId: z.uuid() }),
]);
export type TReplyChunk = z.infer<typeof ZReplyChunk>;
