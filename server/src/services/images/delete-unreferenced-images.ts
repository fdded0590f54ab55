import { and, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses, chats, messages, storedImages } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { deleteUnreferencedFiles } from './delete-unreferenced-files.js';

/**
 * After chats (and their messages and analyses) are deleted: removes the given stored_images
 * rows that nothing references any more, then each file whose storage key no remaining row
 * names. Returns how many rows were removed. File deletion failures are logged, not thrown: the
 * chat is already gone and a leftover file holds no reference to anyone.
 */
export async function deleteUnreferencedImages(
  opts: Pick<AppDeps, 'db' | 'images' | 'log'> & { imageIds: readonly string[] },
): Promise<number> {
  const { db, images, log } = opts;
  const ids = [...new Set(opts.imageIds)];
  if (ids.length === 0) return 0;
  const removed = await db
    .delete(storedImages)
    .where(
      and(
        inArray(storedImages.id, ids),
        sql`not exists (select 1 from ${chats} where ${chats.imageId} = ${storedImages.id})`,
        sql`not exists (select 1 from ${messages} where ${messages.imageId} = ${storedImages.id})`,
        sql`not exists (select 1 from ${analyses} where ${analyses.imageId} = ${storedImages.id} or ${analyses.heatmapImageId} = ${storedImages.id})`,
      ),
    )
    .returning({ storageKey: storedImages.storageKey });
  await deleteUnreferencedFiles({ db, images, log, keys: removed.map((r) => r.storageKey) });
  return removed.length;
}

/** Every image a set of chats points at: the chat's X-ray, message images, analysis inputs and heatmaps. */
export async function imageIdsOfChats(opts: { db: TDb; chatIds: readonly string[] }): Promise<string[]> {
  const { db, chatIds } = opts;
  if (chatIds.length === 0) return [];
  const ids = [...chatIds];

  const rows = await db
    .select({ id: chats.imageId })
    .from(chats)
    .where(inArray(chats.id, ids))
    .union(db.select({ id: messages.imageId }).from(messages).where(inArray(messages.chatId, ids)))
    .union(db.select({ id: analyses.imageId }).from(analyses).where(inArray(analyses.chatId, ids)))
    .union(db.select({ id: analyses.heatmapImageId }).from(analyses).where(inArray(analyses.chatId, ids)));
  return rows.map((r) => r.id).filter((id): id is string => id !== null);
}
