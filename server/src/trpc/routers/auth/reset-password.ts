import { ZMessageResult, ZResetPasswordInput } from '@contracts/schemas/auth.js';
import { resetDoneMessage, resetPassword } from '../../../services/auth/reset-password.js';
import { publicProcedure } from '../../trpc.js';

export const resetPasswordProcedure = publicProcedure
  .input(ZResetPasswordInput)
  .output(ZMessageResult)
  .mutation(async ({ ctx, input }) => {
    const done = await resetPassword({ ...ctx.deps, meta: ctx.meta, input });
    return { success: true as const, message: resetDoneMessage(done) };
  });
