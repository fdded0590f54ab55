import { AUTH_MESSAGES, ZMessageResult, ZResetPasswordInput } from '@contracts/schemas/auth.js';
import { resetPassword } from '../../../services/auth/reset-password.js';
import { publicProcedure } from '../../trpc.js';

export const resetPasswordProcedure = publicProcedure
  .input(ZResetPasswordInput)
  .output(ZMessageResult)
  .mutation(async ({ ctx, input }) => {
    await resetPassword({ ...ctx.deps, meta: ctx.meta, input });
    return { success: true as const, message: AUTH_MESSAGES.resetDone };
  });
