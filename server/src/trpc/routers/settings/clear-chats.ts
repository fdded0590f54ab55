import { ZMessageResult } from '@contracts/schemas/auth.js';
import { SETTINGS_MESSAGES, ZClearInput } from '@contracts/schemas/settings.js';
import { clearChats } from '../../../services/settings/clear-chats.js';
import { passwordSessionProcedure } from '../../trpc.js';

export const clearChatsProcedure = passwordSessionProcedure
  .input(ZClearInput)
  .output(ZMessageResult)
  .mutation(async ({ ctx }) => {
    await clearChats({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId });
    return { success: true as const, message: SETTINGS_MESSAGES.chatsCleared };
  });
