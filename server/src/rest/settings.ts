import type { FastifyPluginAsync } from 'fastify';
import { AUTH_MESSAGES } from '@contracts/schemas/auth.js';
import { SETTINGS_MESSAGES, ZChangeNameInput, ZChangePasswordInput, ZClearInput, ZDeleteAccountInput } from '@contracts/schemas/settings.js';
import { logOut } from '../services/auth/log-out.js';
import { requireAuth, requirePasswordSession } from '../services/auth/require-auth.js';
import { clearSessionCookie } from '../services/auth/session-cookie.js';
import { changeName } from '../services/settings/change-name.js';
import { changePassword } from '../services/settings/change-password.js';
import { clearChats } from '../services/settings/clear-chats.js';
import { clearProfiles } from '../services/settings/clear-profiles.js';
import { deleteAccount } from '../services/settings/delete-account.js';
import { parseWith } from './reply.js';

/** The spec's /api/settings calls; the same services as the tRPC settings router. */
const routes: FastifyPluginAsync = async (app) => {
  const { deps } = app;
  // Logout has no payload in the spec; a client that still labels the empty body as JSON (which
  // the cross-site check asks of cookie requests) must not get a 400 for it. Scoped to /settings.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') done(null, {});
    else void json(req, String(body), done);
  });

  app.post('/logout', async (req, reply) => {
    await logOut(deps.db, req.meta(), await req.resolveAuth());
    clearSessionCookie(reply, deps.config);
    return { success: true, message: AUTH_MESSAGES.loggedOut };
  });

  app.put('/change-name', async (req) => {
    const auth = requireAuth(await req.resolveAuth());
    const user = await changeName(deps, req.meta(), auth.userId, parseWith(ZChangeNameInput, req.body));
    return { success: true, message: SETTINGS_MESSAGES.nameUpdated, user };
  });

  app.put('/change-password', async (req) => {
    const auth = requirePasswordSession(requireAuth(await req.resolveAuth()));
    await changePassword(deps, req.meta(), auth, parseWith(ZChangePasswordInput, req.body));
    return { success: true, message: SETTINGS_MESSAGES.passwordUpdated };
  });

  app.post('/clear-chats', async (req) => {
    const auth = requirePasswordSession(requireAuth(await req.resolveAuth()));
    parseWith(ZClearInput, req.body);
    await clearChats(deps, req.meta(), auth.userId);
    return { success: true, message: SETTINGS_MESSAGES.chatsCleared };
  });

  app.post('/clear-profiles', async (req) => {
    const auth = requirePasswordSession(requireAuth(await req.resolveAuth()));
    parseWith(ZClearInput, req.body);
    await clearProfiles(deps, req.meta(), auth.userId);
    return { success: true, message: SETTINGS_MESSAGES.profilesCleared };
  });

  app.post('/delete-account', async (req, reply) => {
    const auth = requirePasswordSession(requireAuth(await req.resolveAuth()));
    const input = parseWith(ZDeleteAccountInput, req.body);
    await deleteAccount(deps, req.meta(), auth, input.password);
    clearSessionCookie(reply, deps.config);
    return { success: true, message: SETTINGS_MESSAGES.accountDeleted };
  });
};

export default routes;
