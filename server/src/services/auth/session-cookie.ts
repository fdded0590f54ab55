import type { FastifyReply } from 'fastify';
import { HOST_SESSION_COOKIE, SESSION_COOKIE, sessionCookieName } from '../../lib/request-auth.js';

/** The spec's token cookie lifetime (section 9); the server-side session expires with it. */
export const SESSION_LIFETIME_MS = 7 * 24 * 3600_000;

function cookieOptions(secure: boolean) {
  // Path / and no Domain: what a `__Host-` cookie must have (sessionCookieName).
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure };
}

/**
 * Named by sessionCookieName: `__Host-token`, Secure, on https (the configured public URL or a
 * secure request), `token` otherwise.
 */
export function setSessionCookie(reply: FastifyReply, token: string): void {
  const name = sessionCookieName(reply.request);
  reply.setCookie(name, token, { ...cookieOptions(name === HOST_SESSION_COOKIE), maxAge: SESSION_LIFETIME_MS / 1000 });
}

export function clearSessionCookie(reply: FastifyReply): void {
  const name = sessionCookieName(reply.request);
  reply.clearCookie(name, cookieOptions(name === HOST_SESSION_COOKIE));
  // A plain `token` left from before the site moved to https (or to this name) goes too.
  if (name === HOST_SESSION_COOKIE && reply.request.cookies[SESSION_COOKIE])
    reply.clearCookie(SESSION_COOKIE, cookieOptions(true));
}
