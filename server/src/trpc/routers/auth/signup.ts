import { AUTH_MESSAGES, ZAuthResult, ZSignupInput } from '@contracts/schemas/auth.js';
import { setSessionCookie } from '../../../services/auth/session-cookie.js';
import { signUp } from '../../../services/auth/sign-up.js';
import { publicProcedure } from '../../trpc.js';

export const signupProcedure = publicProcedure
  .input(ZSignupInput)
  .output(ZAuthResult)
  .mutation(async ({ ctx, input }) => {
    const { token, user } = await signUp({ ...ctx.deps, meta: ctx.meta, input });
    if (ctx.reply) setSessionCookie(ctx.reply, token);
    return { success: true as const, message: AUTH_MESSAGES.signedUp, token, user };
  });
