import { AUTH_MESSAGES, ZMessageResult } from '@contracts/schemas/auth.js';
import { logOut } from '../../../services/auth/log-out.js';
import { clearSessionCookie } from '../../../services/auth/session-cookie.js';
import { publicProcedure } from '../../trpc.js';

/** Public on purpose: logging out without (or with an expired) session still clears the cookie. */
export const logoutProcedure = publicProcedure.output(ZMessageResult).mutation(async ({ ctx }) => {
  await logOut({ ...ctx.deps, meta: ctx.meta, auth: ctx.auth });
  if (ctx.reply) clearSessionCookie(ctx.reply);
  return { success: true as const, message: AUTH_MESSAGES.loggedOut };
});
