import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'token';

/** The credential a request carries: the session cookie, or an `Authorization: Bearer` token. */
export function credentialOf(req: FastifyRequest): { token: string; from: 'cookie' | 'bearer' } | null {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    if (token) return { token, from: 'bearer' };
  }
  const cookie = req.cookies[SESSION_COOKIE];
  return cookie ? { token: cookie, from: 'cookie' } : null;
}
