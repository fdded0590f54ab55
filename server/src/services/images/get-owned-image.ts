import type { TDb } from '../../db/client.js';
import { storedImages } from '../../db/schema.js';
import { findOwned } from '../data-access/find-owned.js';

export const IMAGE_NOT_FOUND = 'Image not found';

export interface TOwnedImage {
  id: string;
  storageKey: string;
  mediaType: string;
  bytes: number;
}

/** The stored_images row if userId owns it; missing, malformed and foreign ids look the same. */
export async function getOwnedImage(opts: { db: TDb; userId: string; imageId: string }): Promise<TOwnedImage> {
  const columns = {
    id: storedImages.id,
    storageKey: storedImages.storageKey,
    mediaType: storedImages.mediaType,
    bytes: storedImages.bytes,
  };
  return findOwned({
    db: opts.db,
    table: storedImages,
    id: opts.imageId,
    userId: opts.userId,
    columns,
    notFound: IMAGE_NOT_FOUND,
  });
}
