import type { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { requireKeyTeam } from '../services/api-key/require-key-team.js';
import { boundaryOf, readMultipartRelated } from '../services/dicom-node/read-multipart-related.js';
import { storeInstances } from '../services/dicom-node/store-instances.js';

/** A STOW request may carry a study: several films at the DICOM size cap each. */
const STOW_BODY_LIMIT = 512 * 1024 * 1024;
export const STOW_POST_ONLY = 'Only POST (STOW-RS) is served at /dicomweb/studies';
export const STOW_KEY_REQUIRED = 'STOW-RS needs a personal API key (Authorization: Bearer <key>)';
export const STOW_BUSY = 'The server is busy storing other studies. Please try again in a minute.';

/**
 * DICOMweb STOW-RS (PS3.18 10.5) at /dicomweb/studies, for routers, modern PACS and scripts.
 * Only a personal API key is accepted: a browser's session cookie is not (this path has no
 * CSRF check, and no page posts here). The instances land in the key holder's personal space, or
 * with a team key in its team (issue 32; requireKeyTeam).
 *
 * The body is read as a stream, one part at a time (issue 36 S7), by at most
 * DICOM_STOW_MAX_CONCURRENT requests at once in this process; each part after the first spends
 * one request of the key's rate budget (RATE_LIMIT_PER_MINUTE).
 */
const stowRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app.deps;
  const countPart = app.createRateLimit();
  let reading = 0;
  // The body is handed on unread: the route reads it part by part, or not at all when it refuses.
  app.addContentTypeParser(/^multipart\/related/i, (_req, payload, done) => done(null, payload));
  app.post('/studies', { config: { auth: 'user', teamKey: true } }, async (req, reply) => {
    // A refusal may leave the body unread (or half read): close the connection after the answer.
    reply.header('connection', 'close');
    const auth = req.signedIn();
    if (auth.via !== 'api-key') throw new AppError('UNAUTHORIZED', STOW_KEY_REQUIRED);
    const teamId = await requireKeyTeam({ db: app.deps.db, auth });
    const boundary = boundaryOf(req.headers['content-type']);
    if (Number(req.headers['content-length'] ?? 0) > STOW_BODY_LIMIT)
      throw new AppError('PAYLOAD_TOO_LARGE', `A STOW-RS request may carry at most ${STOW_BODY_LIMIT >> 20} MiB`);
    if (reading >= config.DICOM_STOW_MAX_CONCURRENT) {
      reply.header('retry-after', '60');
      throw new AppError('UNAVAILABLE', STOW_BUSY);
    }
    reading += 1;
    try {
      const body = req.body as Readable;
      const parts = readMultipartRelated({
        // Not destroyed when the reading stops early: the answer still goes out on this connection.
        stream: body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>,
        boundary,
        maxPartBytes: config.DICOM_MAX_INSTANCE_BYTES,
        maxBodyBytes: STOW_BODY_LIMIT,
      });
      const admitPart = async () => {
        const rate = await countPart(req);
        return rate.isAllowed || !rate.isExceeded;
      };
      const out = await storeInstances({
        ...app.deps,
        meta: req.meta(),
        userId: auth.userId,
        teamId,
        parts,
        admitPart,
      });
      reply.removeHeader('connection');
      return await reply.status(out.status).type('application/dicom+json').send(JSON.stringify(out.body));
    } finally {
      reading -= 1;
    }
  });
  // Search and retrieve (QIDO/WADO) are not served: say so in JSON, not with the web app's page.
  app.route({
    method: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'],
    url: '/studies',
    config: { auth: 'public', teamKey: true },
    handler: async (_req, reply) =>
      reply
        .status(405)
        .header('allow', 'POST')
        .send({ success: false, message: STOW_POST_ONLY, code: 'METHOD_NOT_ALLOWED' }),
  });
};

export default stowRoutes;
