import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { extensionOf } from '../services/images/image-url.js';
import { readOwnedImage } from '../services/images/read-owned-image.js';
import { sendError } from './reply.js';

// Only types we store are served as themselves; anything else could not be rendered safely.
const SERVABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'application/dicom']);

/**
 * GET /images/{imageId}: the only way an image leaves the server. The owner gets the bytes;
 * another user's id, a malformed id and a missing one all get the same 404.
 */
const routes: FastifyPluginAsync = async (app) => {
  const { deps } = app;

  app.get<{ Params: { imageId: string } }>('/:imageId', async (req, reply) => {
    try {
      const auth = await req.resolveAuth();
      if (!auth) throw new AppError('UNAUTHORIZED', 'Authentication required');
      const { image, data } = await readOwnedImage(deps, req.meta(), auth.userId, req.params.imageId);
      const type = SERVABLE.has(image.mediaType) ? image.mediaType : 'application/octet-stream';
      return reply
        .header('Content-Type', type)
        .header('Content-Disposition', `inline; filename="xray-${image.id}.${extensionOf(image.mediaType)}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(data);
    } catch (err) {
      return sendError(reply, err);
    }
  });
};

export default routes;
