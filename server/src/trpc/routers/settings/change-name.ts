import { ZAuthUser, ZMessageResult } from '@contracts/schemas/auth.js';
import { SETTINGS_MESSAGES, ZChangeNameInput } from '@contracts/schemas/settings.js';
import { changeName } from '../../../services/settings/change-name.js';
import { protectedProcedure } from '../../trpc.js';

export const changeNameProcedure = protectedProcedure
  .input(ZChangeNameInput)
  .output(ZMessageResult.extend({ user: ZAuthUser }))
  .mutation(async ({ ctx, input }) => {
    const user = await changeName({
      ...ctx.deps,
      meta: ctx.meta,
      userId: ctx.auth.userId,
      input,
    });
    return { success: true as const, message: SETTINGS_MESSAGES.nameUpdated, user };
  });
