import { AUTH_MESSAGES, ZLogoutResult } from '@contracts/schemas/auth.js';
import { clearSessionCookie } from '../../../services/auth/session-cookie.js';
import { endSsoSession } from '../../../services/sso/end-sso-session.js';
import { publicProcedure } from '../../trpc.js';

/**
 * Public on purpose: logging out without (or with an expired) session still clears the cookie.
 * A session that came from SSO also gets the IdP's end-session address (RP-initiated logout), so
 * the menu's Logout ends the hospital sign-in too; any other session gets null.
 */
export const logoutProcedure = publicProcedure.output(ZLogoutResult).mutation(async ({ ctx }) => {
  const redirectUrl = await endSsoSession({ ...ctx.deps, meta: ctx.meta, auth: ctx.auth });
  if (ctx.reply) clearSessionCookie(ctx.reply);
  return { success: true as const, message: AUTH_MESSAGES.loggedOut, redirectUrl };
});
