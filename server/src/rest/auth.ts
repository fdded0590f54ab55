import type { FastifyPluginAsync } from 'fastify';
import {
  AUTH_MESSAGES,
  ZCheckEmailInput,
  ZForgotPasswordInput,
  ZLoginInput,
  ZResetPasswordInput,
  ZSignupInput,
} from '@contracts/schemas/auth.js';
import { passwordHasherFor } from '../lib/password.js';
import { logIn } from '../services/auth/log-in.js';
import { requestPasswordReset } from '../services/auth/request-password-reset.js';
import { requireAuth } from '../services/auth/require-auth.js';
import { resetPassword } from '../services/auth/reset-password.js';
import { setSessionCookie } from '../services/auth/session-cookie.js';
import { signUp } from '../services/auth/sign-up.js';
import { parseWith } from './reply.js';

/**
 * The spec's /api/auth calls. Errors are thrown (AppError) and shaped by the app's error
 * handler into `{ success: false, message, code }`.
 */
const routes: FastifyPluginAsync = async (app) => {
  const { deps } = app;
  // Built now, so weak argon2 settings in production stop the server at boot, not at first login,
  // and the dummy hash for unknown emails exists before the first one arrives.
  await passwordHasherFor(deps.config).prepare();

  app.post('/check-email', async (req) => {
    parseWith(ZCheckEmailInput, req.body);
    return { success: true, message: AUTH_MESSAGES.emailChecked };
  });

  app.post('/login', async (req, reply) => {
    const { token, user } = await logIn(deps, req.meta(), parseWith(ZLoginInput, req.body));
    setSessionCookie(reply, token, deps.config);
    return { success: true, message: AUTH_MESSAGES.loggedIn, token, user };
  });

  app.post('/signup', async (req, reply) => {
    const { token, user } = await signUp(deps, req.meta(), parseWith(ZSignupInput, req.body));
    setSessionCookie(reply, token, deps.config);
    return { success: true, message: AUTH_MESSAGES.signedUp, token, user };
  });

  app.post('/forgot-password', async (req) => {
    await requestPasswordReset(deps, req.meta(), parseWith(ZForgotPasswordInput, req.body));
    return { success: true, message: AUTH_MESSAGES.resetSent };
  });

  app.post('/reset-password', async (req) => {
    await resetPassword(deps, req.meta(), parseWith(ZResetPasswordInput, req.body));
    return { success: true, message: AUTH_MESSAGES.resetDone };
  });

  app.get('/me', async (req) => {
    const auth = requireAuth(await req.resolveAuth());
    return { success: true, user: { id: auth.userId, name: auth.name, email: auth.email } };
  });
};

export default routes;
