import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { storedImages } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { isUuid } from '../history/keyset-cursor.js';

export const IMAGE_NOT_FOUND = 'Image not found';

export interface TOwnedImage {
  id: string;
  storageKey: string;
  mediaType: string;
  bytes: number;
}

/** The stored_images row if userId owns it; missing, malformed and foreign ids look the same. */
export async function getOwnedImage(db: TDb, userId: string, imageId: string): Promise<TOwnedImage> {
  if (!isUuid(imageId)) throw new AppError('NOT_FOUND', IMAGE_NOT_FOUND);
  const [row] = await db
    .select({ id: storedImages.id, storageKey: storedImages.storageKey, mediaType: storedImages.mediaType, bytes: storedImages.bytes })
    .from(storedImages)
    .where(and(eq(storedImages.id, imageId), eq(storedImages.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', IMAGE_NOT_FOUND);
  return row;
}
