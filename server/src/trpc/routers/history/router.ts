import {
  ZChatIdInput,
  ZDeleteChatOutput,
  ZEditTitleInput,
  ZEditTitleOutput,
  ZHistoryGetInput,
  ZHistoryGetOutput,
  ZHistoryListInput,
  type THistoryListOutput,
} from '@contracts/schemas/history.js';
import { deleteChat } from '../../../services/history/delete-chat.js';
import { editChatTitle } from '../../../services/history/edit-chat-title.js';
import { getChat } from '../../../services/history/get-chat.js';
import { listChats } from '../../../services/history/list-chats.js';
import { protectedProcedure, router } from '../../trpc.js';

/** Chat history of the signed-in user: cursor-paginated lists, rename, delete. */
export const historyRouter = router({
  // No .output() here: the app's hottest read, and re-validating its page of summaries cost ~5 %
  // of the server's CPU in bench:rps. The answer's type is still ZHistoryListOutput's (listChats
  // returns THistoryListOutput), and toChatSummary builds each item field by field from typed
  // columns, so there is nothing for the schema to strip or catch.
  list: protectedProcedure.input(ZHistoryListInput).query(({ ctx, input }): Promise<THistoryListOutput> =>
    listChats({
      ...ctx.deps,
      meta: ctx.meta,
      userId: ctx.auth.userId,
      teamId: input.team,
      cursor: input.cursor,
      limit: input.limit,
    }),
  ),

  get: protectedProcedure
    .input(ZHistoryGetInput)
    .output(ZHistoryGetOutput)
    .query(({ ctx, input }) =>
      getChat({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        chatId: input.chatId,
        cursor: input.cursor,
        limit: input.limit,
      }),
    ),

  editTitle: protectedProcedure
    .input(ZEditTitleInput)
    .output(ZEditTitleOutput)
    .mutation(({ ctx, input }) =>
      editChatTitle({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        chatId: input.chatId,
        title: input.title,
      }),
    ),

  delete: protectedProcedure
    .input(ZChatIdInput)
    .output(ZDeleteChatOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteChat({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, chatId: input.chatId });
      return { chatId: input.chatId };
    }),
});
