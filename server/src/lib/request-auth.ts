import type { FastifyRequest } from 'fastify';
import '../types/fastify-augment.js';

export const SESSION_COOKIE = 'token';
/**
 * The session cookie's name on https (issue 23 Info). A browser keeps a `__Host-` cookie only if
 * it is Secure, has path / and no Domain, so a sibling subdomain or a plain-http page on the
 * network cannot plant or overwrite it (session fixation, login CSRF). Only this name is read
 * there: a plain `token` cookie on https could have been planted that way.
 */
export const HOST_SESSION_COOKIE = '__Host-token';

/**
 * Https when the configured public URL is (behind a TLS-terminating proxy the request itself
 * may arrive over http) or when the request is secure (TRUST_PROXY and X-Forwarded-Proto).
 */
export function sessionCookieName(req: FastifyRequest): string {
  const https = req.server.deps.config.PUBLIC_URL.startsWith('https:') || req.protocol === 'https';
  return https ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

/** The credential a request carries: the session cookie (see sessionCookieName), or an `Authorization: Bearer` token. */
export function credentialOf(req: FastifyRequest): { token: string; from: 'cookie' | 'bearer' } | null {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    if (token) return { token, from: 'bearer' };
  }
  const cookie = req.cookies[sessionCookieName(req)];
  return cookie ? { token: cookie, from: 'cookie' } : null;
}

/**
 * True only when the request carries a Bearer credential that resolved to a caller. A browser
 * never attaches one by itself, so such a request cannot be forged by another site; a cookie
 * beside `Authorization: Basic …` (or beside a bearer token we do not know) proves nothing.
 */
export async function isBearerAuthenticated(req: FastifyRequest): Promise<boolean> {
  if (credentialOf(req)?.from !== 'bearer') return false;
  return (await req.resolveAuth().catch(() => null)) !== null;
}

/**
 * A read that another site made a signed-in browser send (Sec-Fetch-Site: cross-site) with
 * its cookie. Downloads are GETs, which the CSRF check lets through; patient documents must not
 * be fetched (and audited) on another site's behalf even though it cannot read them.
 */
export async function isCrossSiteBrowserRead(req: FastifyRequest): Promise<boolean> {
  return req.headers['sec-fetch-site'] === 'cross-site' && !(await isBearerAuthenticated(req));
}
