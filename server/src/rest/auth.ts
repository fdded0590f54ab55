import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  ZAuthResult,
  ZCheckEmailInput,
  ZForgotPasswordInput,
  ZLoginInput,
  ZMeResult,
  ZMessageResult,
  ZResetPasswordInput,
  ZSignupInput,
} from '@contracts/schemas/auth.js';
import { passwordHasherFor } from '../lib/password.js';
import { logIn } from '../services/auth/log-in.js';
import { requestPasswordReset } from '../services/auth/request-password-reset.js';
import { resetDoneMessage, resetPassword } from '../services/auth/reset-password.js';
import { setSessionCookie } from '../services/auth/session-cookie.js';
import { signUp } from '../services/auth/sign-up.js';
import { errorResponse } from './openapi/responses.js';

const tags = ['auth'];

/** The spec's /api/auth calls. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  // Built now, so weak argon2 settings in production stop the server at boot, not at first login,
  // and the dummy hash for unknown emails exists before the first one arrives.
  await passwordHasherFor(deps.config).prepare();
  const config = { auth: 'public' } as const;

  /** Login and signup answer alike: the cookie for the browser, the token for API clients. */
  function signedIn<TUser>(reply: FastifyReply, { token, user }: { token: string; user: TUser }, message: string) {
    setSessionCookie(reply, token);
    return { success: true as const, message, token, user };
  }

  app.post(
    '/check-email',
    {
      config,
      schema: {
        tags,
        summary: 'Check an email (login step 1)',
        body: ZCheckEmailInput,
        response: { 200: ZMessageResult },
      },
    },
    async () => ({ success: true as const, message: AUTH_MESSAGES.emailChecked }),
  );

  app.post(
    '/login',
    {
      config,
      schema: {
        tags,
        summary: 'Log in; sets the session cookie and returns the token',
        body: ZLoginInput,
        response: { 200: ZAuthResult, 401: errorResponse(AUTH_MESSAGES.badCredentials) },
      },
    },
    async (req, reply) =>
      signedIn(reply, await logIn({ ...deps, meta: req.meta(), input: req.body }), AUTH_MESSAGES.loggedIn),
  );

  app.post(
    '/signup',
    {
      config,
      schema: {
        tags,
        summary: 'Create an account',
        body: ZSignupInput,
        response: { 200: ZAuthResult, 409: errorResponse(AUTH_MESSAGES.emailTaken) },
      },
    },
    async (req, reply) =>
      signedIn(reply, await signUp({ ...deps, meta: req.meta(), input: req.body }), AUTH_MESSAGES.signedUp),
  );

  app.post(
    '/forgot-password',
    {
      config,
      schema: {
        tags,
        summary: 'Email a password reset link',
        body: ZForgotPasswordInput,
        response: { 200: ZMessageResult },
      },
    },
    async (req) => {
      await requestPasswordReset({ ...deps, meta: req.meta(), input: req.body });
      return { success: true as const, message: AUTH_MESSAGES.resetSent };
    },
  );

  app.post(
    '/reset-password',
    {
      config,
      schema: {
        tags,
        summary: 'Set a new password with a reset token',
        body: ZResetPasswordInput,
        response: { 200: ZMessageResult },
      },
    },
    async (req) => {
      const done = await resetPassword({ ...deps, meta: req.meta(), input: req.body });
      return { success: true as const, message: resetDoneMessage(done) };
    },
  );

  app.get(
    '/me',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'The signed-in user', response: { 200: ZMeResult } },
    },
    async (req) => {
      const auth = req.signedIn();
      return { success: true as const, user: { id: auth.userId, name: auth.name, email: auth.email } };
    },
  );
};

export default routes;
