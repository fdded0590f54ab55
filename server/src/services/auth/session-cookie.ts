import type { FastifyReply } from 'fastify';
import type { TConfig } from '@contracts/config/server-config.js';
import { SESSION_COOKIE } from '../../lib/request-auth.js';

/** The spec's token cookie lifetime (section 9); the server-side session expires with it. */
export const SESSION_LIFETIME_MS = 7 * 24 * 3600_000;

function cookieOptions(config: Pick<TConfig, 'PUBLIC_URL'>) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    // From the configured public URL, not the request: behind a TLS-terminating proxy the
    // request itself arrives over plain http.
    secure: config.PUBLIC_URL.startsWith('https:'),
  };
}

export function setSessionCookie(reply: FastifyReply, token: string, config: Pick<TConfig, 'PUBLIC_URL'>): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(config), maxAge: SESSION_LIFETIME_MS / 1000 });
}

export function clearSessionCookie(reply: FastifyReply, config: Pick<TConfig, 'PUBLIC_URL'>): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(config));
}
