import { eq } from 'drizzle-orm';
import { storedImages } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { withStorageKeyLock } from './storage-key-lock.js';

/**
 * Deletes each file whose storage key no stored_images row names any more. Keys are
 * content-addressed and may be shared (the same picture uploaded twice), so the check and the
 * delete run under the key's lock, which uploads also take: a row added a moment ago for the
 * same bytes can never end up pointing at a removed file. A file that cannot be deleted is
 * logged and left: the rows are already gone, and an orphan file references no one.
 */
export async function deleteUnreferencedFiles(
  opts: Pick<AppDeps, 'db' | 'images' | 'log'> & { keys: readonly string[] },
): Promise<{ deleted: number; kept: number; failed: number }> {
  const { db, images, log, keys } = opts;
  let deleted = 0;
  let kept = 0;
  let failed = 0;
  for (const key of new Set(keys)) {
    try {
      const removed = await withStorageKeyLock({
        db,
        storageKey: key,
        work: async (tx) => {
          const [still] = await tx
            .select({ id: storedImages.id })
            .from(storedImages)
            .where(eq(storedImages.storageKey, key))
            .limit(1);
          if (still) return false;
          await images.delete(key);
          return true;
        },
      });
      if (removed) deleted++;
      else kept++;
    } catch (err) {
      failed++;
      // The key is a content hash: it says nothing about the patient.
      log.warn({ err, storageKey: key }, 'could not delete an image file; it is left orphaned');
    }
  }
  return { deleted, kept, failed };
}
