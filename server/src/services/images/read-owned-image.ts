import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { auditedAccess } from '../audit/audited-access.js';
import { getOwnedImage, IMAGE_NOT_FOUND, type TOwnedImage } from './get-owned-image.js';

/**
 * The bytes of one of userId's images, audited as a read. A row whose file has gone (deleted
 * storage, a failed write) answers like a missing image rather than a 500.
 */
export function readOwnedImage(
  opts: Pick<AppDeps, 'db' | 'images' | 'log'> & { meta: RequestMeta | null; userId: string; imageId: string },
): Promise<{ image: TOwnedImage; data: Buffer }> {
  const { db, images, log, meta, userId, imageId } = opts;
  return auditedAccess({
    db,
    meta,
    userId,
    action: 'image.read',
    objectType: 'stored_image',
    objectId: imageId,
    work: async () => {
      const image = await getOwnedImage({ db, userId, imageId });
      try {
        return { image, data: await images.get(image.storageKey) };
      } catch (err) {
        log.warn({ err, imageId }, 'stored image file is missing');
        throw new AppError('NOT_FOUND', IMAGE_NOT_FOUND);
      }
    },
  });
}
