import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUTH_MESSAGES } from '@contracts/schemas/auth.js';
import { SSO_MESSAGES, ZLinkedIdentities, ZSsoLinkInput, ZSsoOptions } from '@contracts/schemas/sso.js';
import { isAppError } from '../lib/app-error.js';
import { clearSessionCookie, setSessionCookie } from '../services/auth/session-cookie.js';
import { backChannelLogout } from '../services/sso/back-channel-logout.js';
import { confirmSsoLink } from '../services/sso/confirm-sso-link.js';
import { endSsoSession } from '../services/sso/end-sso-session.js';
import { finishSsoLogin } from '../services/sso/finish-sso-login.js';
import { listLinkedIdentities, unlinkIdentity } from '../services/sso/linked-identities.js';
import { startSsoLogin } from '../services/sso/start-sso-login.js';
import { SSO_STEP_TTL_S } from '../services/sso/sso-store.js';
import { envelope, errorResponse, ZOk } from './openapi/responses.js';

const tags = ['sso'];
const TX_COOKIE = 'sso_tx';
const LINK_COOKIE = 'sso_link';
const publicRoute = { auth: 'public' } as const;

/** Short-lived, http-only cookies scoped to these routes: they tie a login to the browser that began it. */
function stepCookie(req: FastifyRequest) {
  const secure = req.protocol === 'https' || req.server.deps.config.PUBLIC_URL.startsWith('https:');
  return { path: '/api/auth/oidc', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: SSO_STEP_TTL_S };
}

/** OpenID Connect single sign-on (docs/sso.md). Routes other than /options answer 404 while SSO is off. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;
  const { config } = deps;
  const enabled = Boolean(config.OIDC_ISSUER);
  // The IdP posts the logout token as a form (Back-Channel Logout 1.0, 2.5); scoped to these routes.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  const toLogin = (reply: FastifyReply, query: string) => reply.redirect(`/login?${query}`, 302);
  const toProfile = (reply: FastifyReply, query: string) => reply.redirect(`/settings?${query}`, 302);

  app.get(
    '/options',
    { config: publicRoute, schema: { tags, summary: 'What the login page offers', response: { 200: ZSsoOptions } } },
    async () => ({ sso: enabled, buttonText: config.OIDC_BUTTON_TEXT, passwordLogin: config.PASSWORD_LOGIN === 'on' }),
  );
  // The account's linked sign-ins: listed and unlinked even after SSO is turned off.
  app.get(
    '/identities',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "The account's linked hospital sign-ins",
        response: { 200: envelope(ZLinkedIdentities) },
      },
    },
    async (req) => ({
      success: true as const,
      data: await listLinkedIdentities({ ...deps, userId: req.signedIn().userId }),
    }),
  );

  app.delete(
    '/identities/:identityId',
    {
      config: { auth: 'password-session' },
      schema: {
        tags,
        summary: 'Unlink a hospital sign-in while a password or another sign-in remains',
        params: z.object({ identityId: z.string().max(100) }),
        response: {
          200: ZOk,
          404: errorResponse(SSO_MESSAGES.identityNotFound),
          409: errorResponse(SSO_MESSAGES.lastSignIn),
        },
      },
    },
    async (req) => {
      await unlinkIdentity({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        identityId: req.params.identityId,
      });
      return { success: true as const, message: SSO_MESSAGES.unlinked };
    },
  );

  if (!enabled) return;

  app.get(
    '/login',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Start an SSO login (302 to the IdP); with link=1, link a hospital sign-in to the signed-in account',
        querystring: z.object({ link: z.literal('1').optional() }),
      },
    },
    async (req, reply) => {
      let linkUserId: string | undefined;
      if (req.query.link) {
        const auth = await req.resolveAuth();
        // Only a browser session links (an API key cannot follow a redirect to the IdP anyway).
        if (!auth?.sessionId) return toLogin(reply, 'sso_error=bad_response');
        linkUserId = auth.userId;
      }
      try {
        const { url, transactionId } = await startSsoLogin({ ...deps, ...(linkUserId ? { linkUserId } : {}) });
        reply.setCookie(TX_COOKIE, transactionId, stepCookie(req));
        return await reply.redirect(url, 302);
      } catch (err) {
        if (isAppError(err) && err.code === 'UNAVAILABLE')
          return linkUserId
            ? toProfile(reply, 'sso_error=idp_unreachable')
            : toLogin(reply, 'sso_error=idp_unreachable');
        throw err;
      }
    },
  );

  app.get(
    '/callback',
    { config: publicRoute, schema: { tags, summary: 'The IdP returns here' } },
    async (req, reply) => {
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const outcome = await finishSsoLogin({
        ...deps,
        meta: req.meta(),
        transactionId: req.cookies[TX_COOKIE],
        callbackQuery: query,
        signedInUserId: (await req.resolveAuth())?.userId ?? null,
      });
      reply.clearCookie(TX_COOKIE, { path: '/api/auth/oidc' });
      switch (outcome.kind) {
        case 'linked':
          return toProfile(reply, 'sso_linked=1');
        case 'signed-in':
          setSessionCookie(reply, outcome.token);
          return reply.redirect(outcome.landing, 302);
        case 'confirm-link':
          reply.setCookie(LINK_COOKIE, outcome.linkId, stepCookie(req));
          return toLogin(reply, 'sso_link=1');
        case 'refused':
          return outcome.linking
            ? toProfile(reply, `sso_error=${outcome.reason}`)
            : toLogin(reply, `sso_error=${outcome.reason}`);
      }
    },
  );

  app.post(
    '/link',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Confirm linking the IdP identity with the account password (once)',
        body: ZSsoLinkInput,
        response: { 200: z.object({ success: z.literal(true), message: z.string(), token: z.string() }) },
      },
    },
    async (req, reply) => {
      const { token } = await confirmSsoLink({
        ...deps,
        meta: req.meta(),
        linkId: req.cookies[LINK_COOKIE],
        password: req.body.password,
      });
      reply.clearCookie(LINK_COOKIE, { path: '/api/auth/oidc' });
      setSessionCookie(reply, token);
      return { success: true as const, message: AUTH_MESSAGES.loggedIn, token };
    },
  );

  app.post(
    '/logout',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'End this session, and the IdP session when it came from SSO',
        response: { 200: ZOk.extend({ redirectUrl: z.string().nullable() }) },
      },
    },
    async (req, reply) => {
      const redirectUrl = await endSsoSession({ ...deps, meta: req.meta(), auth: await req.resolveAuth() });
      clearSessionCookie(reply);
      return { success: true as const, message: AUTH_MESSAGES.loggedOut, redirectUrl };
    },
  );

  app.post(
    '/backchannel-logout',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'OpenID Connect Back-Channel Logout: the IdP ends sessions',
        body: z.object({ logout_token: z.string().min(1).max(16_384) }),
        response: { 200: ZOk.extend({ ended: z.number().int() }) },
      },
    },
    async (req, reply) => {
      const ended = await backChannelLogout({ ...deps, meta: req.meta(), logoutToken: req.body.logout_token });
      reply.header('cache-control', 'no-store');
      return { success: true as const, message: 'Sessions ended', ended };
    },
  );
};

export default routes;
