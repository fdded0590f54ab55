import { AUTH_MESSAGES, ZAuthResult, ZLoginInput } from '@contracts/schemas/auth.js';
import { logIn } from '../../../services/auth/log-in.js';
import { setSessionCookie } from '../../../services/auth/session-cookie.js';
import { publicProcedure } from '../../trpc.js';

export const loginProcedure = publicProcedure
  .input(ZLoginInput)
  .output(ZAuthResult)
  .mutation(async ({ ctx, input }) => {
    const { token, user } = await logIn({ ...ctx.deps, meta: ctx.meta, input });
    if (ctx.reply) setSessionCookie(ctx.reply, token);
    return { success: true as const, message: AUTH_MESSAGES.loggedIn, token, user };
  });
