import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { extensionOf } from '../services/images/image-url.js';
import { IMAGE_NOT_FOUND } from '../services/images/get-owned-image.js';
import { readOwnedImage } from '../services/images/read-owned-image.js';
import { binaryResponse } from './openapi/binary.js';
import { errorResponse } from './openapi/responses.js';

// Only types we store are served as themselves; anything else could not be rendered safely.
const SERVABLE = ['image/jpeg', 'image/png', 'image/webp', 'application/dicom'];

/**
 * GET /images/{imageId}: the only way an image leaves the server. The owner gets the bytes;
 * another user's id, a malformed id and a missing one all get the same 404.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/:imageId',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['history'],
        summary: 'An X-ray or heatmap image of one of your chats',
        params: z.object({ imageId: z.string().describe('Image id (from image_url)') }),
        response: {
          200: binaryResponse('The image', SERVABLE),
          404: errorResponse(`${IMAGE_NOT_FOUND}; another account's image answers exactly like a missing one`),
        },
      },
    },
    async (req, reply) => {
      const { image, data } = await readOwnedImage({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        imageId: req.params.imageId,
      });
      const type = SERVABLE.includes(image.mediaType) ? image.mediaType : 'application/octet-stream';
      return reply
        .header('Content-Type', type)
        .header('Content-Disposition', `inline; filename="xray-${image.id}.${extensionOf(image.mediaType)}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(data);
    },
  );
};

export default routes;
