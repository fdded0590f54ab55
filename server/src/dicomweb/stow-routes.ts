import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { boundaryOf, splitMultipartRelated } from '../services/dicom-node/split-multipart-related.js';
import { storeInstances } from '../services/dicom-node/store-instances.js';

/** A STOW request may carry a study: several films at the DICOM size cap each. */
const STOW_BODY_LIMIT = 512 * 1024 * 1024;
export const STOW_POST_ONLY = 'Only POST (STOW-RS) is served at /dicomweb/studies';
export const STOW_KEY_REQUIRED = 'STOW-RS needs a personal API key (Authorization: Bearer <key>)';

/**
 * DICOMweb STOW-RS (PS3.18 10.5) at /dicomweb/studies, for routers, modern PACS and scripts.
 * Only a personal API key is accepted: a browser's session cookie is not (this path has no
 * CSRF check, and no page posts here). The instances land in the key holder's account.
 */
const stowRoutes: FastifyPluginAsync = async (app) => {
  app.addContentTypeParser(
    /^multipart\/related/i,
    { parseAs: 'buffer', bodyLimit: STOW_BODY_LIMIT },
    (_req, body, done) => done(null, body),
  );
  app.post('/studies', { config: { auth: 'user' }, bodyLimit: STOW_BODY_LIMIT }, async (req, reply) => {
    const auth = req.signedIn();
    if (auth.via !== 'api-key') throw new AppError('UNAUTHORIZED', STOW_KEY_REQUIRED);
    const boundary = boundaryOf(req.headers['content-type']);
    if (!Buffer.isBuffer(req.body)) throw new AppError('BAD_REQUEST', 'The body holds no DICOM part');
    const parts = splitMultipartRelated(req.body, boundary);
    const out = await storeInstances({ ...app.deps, meta: req.meta(), userId: auth.userId, parts });
    return reply.status(out.status).type('application/dicom+json').send(JSON.stringify(out.body));
  });
  // Search and retrieve (QIDO/WADO) are not served: say so in JSON, not with the web app's page.
  app.route({
    method: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'],
    url: '/studies',
    config: { auth: 'public' },
    handler: async (_req, reply) =>
      reply
        .status(405)
        .header('allow', 'POST')
        .send({ success: false, message: STOW_POST_ONLY, code: 'METHOD_NOT_ALLOWED' }),
  });
};

export default stowRoutes;
