import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUTH_MESSAGES, ZAuthUser, ZLogoutResult } from '@contracts/schemas/auth.js';
import {
  SETTINGS_MESSAGES,
  ZChangeNameInput,
  ZChangePasswordInput,
  ZClearInput,
  ZDeleteAccountInput,
} from '@contracts/schemas/settings.js';
import { clearSessionCookie } from '../services/auth/session-cookie.js';
import { changeName } from '../services/settings/change-name.js';
import { changePassword } from '../services/settings/change-password.js';
import { clearChats } from '../services/settings/clear-chats.js';
import { clearProfiles } from '../services/settings/clear-profiles.js';
import { deleteAccount } from '../services/settings/delete-account.js';
import { endSsoSession } from '../services/sso/end-sso-session.js';
import { errorResponse, ZOk } from './openapi/responses.js';

const tags = ['settings'];
const wrongPassword = errorResponse('The current password is wrong');
const passwordSession = { auth: 'password-session' } as const;

/** The spec's /api/settings calls; the same services as the tRPC settings router. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  // Logout has no payload in the spec; a client that still labels the empty body as JSON (which
  // the cross-site check asks of cookie requests) must not get a 400 for it. Scoped to /settings.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') done(null, {});
    else void json(req, String(body), done);
  });

  // Public: signing out with an expired session still clears the cookie. A session from SSO
  // also ends at the IdP (issue 39): the answer carries its end-session address, as tRPC
  // settings.logout and /api/auth/oidc/logout do; null for any other session.
  app.post(
    '/logout',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'End this session, and the IdP session when it came from SSO (follow redirectUrl)',
        response: { 200: ZLogoutResult },
      },
    },
    async (req, reply) => {
      const redirectUrl = await endSsoSession({ ...deps, meta: req.meta(), auth: await req.resolveAuth() });
      clearSessionCookie(reply);
      return { success: true as const, message: AUTH_MESSAGES.loggedOut, redirectUrl };
    },
  );

  app.put(
    '/change-name',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Change the account name',
        body: ZChangeNameInput,
        response: { 200: ZOk.extend({ user: ZAuthUser }) },
      },
    },
    async (req) => {
      const user = await changeName({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        input: req.body,
      });
      return { success: true as const, message: SETTINGS_MESSAGES.nameUpdated, user };
    },
  );

  app.put(
    '/change-password',
    {
      config: passwordSession,
      schema: {
        tags,
        summary: 'Change the password (password session only)',
        body: ZChangePasswordInput,
        response: { 200: ZOk, 403: wrongPassword },
      },
    },
    async (req) => {
      await changePassword({
        ...deps,
        meta: req.meta(),
        auth: req.passwordSession(),
        input: req.body,
      });
      return { success: true as const, message: SETTINGS_MESSAGES.passwordUpdated };
    },
  );

  app.post(
    '/clear-chats',
    {
      config: passwordSession,
      schema: { tags, summary: 'Delete every chat', body: ZClearInput, response: { 200: ZOk } },
    },
    async (req) => {
      await clearChats({ ...deps, meta: req.meta(), userId: req.signedIn().userId });
      return { success: true as const, message: SETTINGS_MESSAGES.chatsCleared };
    },
  );

  app.post(
    '/clear-profiles',
    {
      config: passwordSession,
      schema: { tags, summary: 'Delete every patient profile', body: ZClearInput, response: { 200: ZOk } },
    },
    async (req) => {
      await clearProfiles({ ...deps, meta: req.meta(), userId: req.signedIn().userId });
      return { success: true as const, message: SETTINGS_MESSAGES.profilesCleared };
    },
  );

  app.post(
    '/delete-account',
    {
      config: passwordSession,
      schema: {
        tags,
        summary: 'Delete the account (needs the password)',
        body: ZDeleteAccountInput,
        response: { 200: ZOk, 403: wrongPassword },
      },
    },
    async (req, reply) => {
      await deleteAccount({
        ...deps,
        meta: req.meta(),
        auth: req.passwordSession(),
        password: req.body.password,
      });
      clearSessionCookie(reply);
      return { success: true as const, message: SETTINGS_MESSAGES.accountDeleted };
    },
  );
};

export default routes;
