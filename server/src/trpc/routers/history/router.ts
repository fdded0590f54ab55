import {
  ZChatIdInput,
  ZDeleteChatOutput,
  ZEditTitleInput,
  ZEditTitleOutput,
  ZHistoryGetInput,
  ZHistoryGetOutput,
  ZHistoryListInput,
  ZHistoryListOutput,
} from '@contracts/schemas/history.js';
import { deleteChat } from '../../../services/history/delete-chat.js';
import { editChatTitle } from '../../../services/history/edit-chat-title.js';
import { getChat } from '../../../services/history/get-chat.js';
import { listChats } from '../../../services/history/list-chats.js';
import { protectedProcedure, router } from '../../trpc.js';

/** Chat history of the signed-in user: cursor-paginated lists, rename, delete. */
export const historyRouter = router({
  list: protectedProcedure
    .input(ZHistoryListInput)
    .output(ZHistoryListOutput)
    .query(({ ctx, input }) => listChats({ db: ctx.deps.db, meta: ctx.meta, userId: ctx.auth.userId, cursor: input.cursor, limit: input.limit })),

  get: protectedProcedure
    .input(ZHistoryGetInput)
    .output(ZHistoryGetOutput)
    .query(({ ctx, input }) =>
      getChat({ db: ctx.deps.db, meta: ctx.meta, userId: ctx.auth.userId, chatId: input.chatId, cursor: input.cursor, limit: input.limit }),
    ),

  editTitle: protectedProcedure
    .input(ZEditTitleInput)
    .output(ZEditTitleOutput)
    .mutation(({ ctx, input }) =>
      editChatTitle({ db: ctx.deps.db, meta: ctx.meta, userId: ctx.auth.userId, chatId: input.chatId, title: input.title }),
    ),

  delete: protectedProcedure
    .input(ZChatIdInput)
    .output(ZDeleteChatOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteChat({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, chatId: input.chatId });
      return { chatId: input.chatId };
    }),
});
