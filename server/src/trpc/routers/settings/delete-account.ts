import { ZMessageResult } from '@contracts/schemas/auth.js';
import { SETTINGS_MESSAGES, ZDeleteAccountInput } from '@contracts/schemas/settings.js';
import { clearSessionCookie } from '../../../services/auth/session-cookie.js';
import { deleteAccount } from '../../../services/settings/delete-account.js';
import { passwordSessionProcedure } from '../../trpc.js';

export const deleteAccountProcedure = passwordSessionProcedure
  .input(ZDeleteAccountInput)
  .output(ZMessageResult)
  .mutation(async ({ ctx, input }) => {
    await deleteAccount({
      ...ctx.deps,
      meta: ctx.meta,
      auth: ctx.auth,
      password: input.password,
    });
    if (ctx.reply) clearSessionCookie(ctx.reply);
    return { success: true as const, message: SETTINGS_MESSAGES.accountDeleted };
  });
