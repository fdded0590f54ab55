import fp from 'fastify-plugin';
import { isBearerAuthenticated, sessionCookieName } from '../lib/request-auth.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cookie-authenticated mutations must come from our own pages. Browsers send Origin and
 * Sec-Fetch-Site on cross-site posts, and a plain HTML form cannot send JSON, so: JSON (or the
 * upload's multipart) only, and no foreign Origin / cross-site fetch. Bearer clients are not
 * exposed to CSRF (the browser never attaches that header by itself), so a request that a Bearer
 * credential actually authenticates skips the check; any other Authorization header (Basic, an
 * unknown token) beside the cookie does not.
 */
export default fp(async (app) => {
  const ownOrigin = new URL(app.deps.config.PUBLIC_URL).origin;
  app.addHook('onRequest', async (req, reply) => {
    if (SAFE.has(req.method)) return;
    // /dicomweb takes API keys only, but a stray session cookie must not make it a CSRF target either.
    if (!['/api/', '/trpc/', '/dicomweb/'].some((p) => req.url.startsWith(p))) return;
    // The cookie the auth check reads (`__Host-token` on https): any other one authenticates nothing.
    if (!req.cookies[sessionCookieName(req)] || (await isBearerAuthenticated(req))) return;
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    // An HTML form can send neither JSON nor STOW-RS's multipart/related.
    const typeOk = ['application/json', 'multipart/form-data', 'multipart/related'].some((t) => type.startsWith(t));
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const hostOrigin = `${req.protocol}://${req.headers.host ?? ''}`;
    const originOk = !origin || origin === ownOrigin || origin === hostOrigin;
    const siteOk = !site || site === 'same-origin' || site === 'none';
    if (!typeOk || !originOk || !siteOk) {
      return reply.status(403).send({ success: false, message: 'Cross-site request refused', code: 'FORBIDDEN' });
    }
  });
});
