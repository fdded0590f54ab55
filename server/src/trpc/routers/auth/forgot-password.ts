import { AUTH_MESSAGES, ZForgotPasswordInput, ZMessageResult } from '@contracts/schemas/auth.js';
import { requestPasswordReset } from '../../../services/auth/request-password-reset.js';
import { publicProcedure } from '../../trpc.js';

/** The same answer whether or not the email has an account. */
export const forgotPasswordProcedure = publicProcedure
  .input(ZForgotPasswordInput)
  .output(ZMessageResult)
  .mutation(async ({ ctx, input }) => {
    await requestPasswordReset({ ...ctx.deps, meta: ctx.meta, input });
    return { success: true as const, message: AUTH_MESSAGES.resetSent };
  });
