import { inArray } from 'drizzle-orm';
import { storedImages } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';

const CHUNK = 500;

/**
 * Deletes image files whose rows are already gone (the caller deleted them and committed first,
 * so no row ever points at a missing file). Keys are content-addressed and may be shared with
 * another row (the same picture uploaded twice), so a key still in use is kept. A file that
 * cannot be deleted is logged and left behind: an orphan file is harmless, a failed request
 * after the rows are gone would be confusing.
 */
export async function deleteImageFiles(
  deps: Pick<AppDeps, 'db' | 'images' | 'log'>,
  keys: readonly string[],
): Promise<{ deleted: number; kept: number; failed: number }> {
  const unique = [...new Set(keys)];
  const stillUsed = new Set<string>();
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await deps.db
      .selectDistinct({ key: storedImages.storageKey })
      .from(storedImages)
      .where(inArray(storedImages.storageKey, unique.slice(i, i + CHUNK)));
    for (const r of rows) stillUsed.add(r.key);
  }
  let deleted = 0;
  let failed = 0;
  for (const key of unique) {
    if (stillUsed.has(key)) continue;
    try {
      await deps.images.delete(key);
      deleted++;
    } catch (err) {
      failed++;
      // The key is a content hash: it says nothing about the patient.
      deps.log.warn({ err, storageKey: key }, 'could not delete an image file; it is left orphaned');
    }
  }
  return { deleted, kept: stillUsed.size, failed };
}
