import { and, inArray, isNotNull, or } from 'drizzle-orm';
import { analyses, chats, messages, storedImages } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { recordAudit } from '../audit/record-audit.js';
import { deleteUnreferencedFiles } from '../images/delete-unreferenced-files.js';
import { spaceRows } from '../data-access/find-owned.js';

/**
 * Deletes every chat of the user's personal space (a team's chats are the team's) with its messages and analyses (foreign keys cascade), and the
 * images those chats used: rows inside one transaction, then the files once it has committed.
 */
export async function clearChats(
  opts: Pick<AppDeps, 'db' | 'images' | 'log'> & { meta: RequestMeta; userId: string },
): Promise<{ chats: number; images: number }> {
  const { db, meta, userId } = opts;
  const userChats = db
    .select({ id: chats.id })
    .from(chats)
    .where(spaceRows(chats, userId, null));
  const imageIds = [
    db
      .select({ id: chats.imageId })
      .from(chats)
      .where(and(spaceRows(chats, userId, null), isNotNull(chats.imageId))),
    db
      .select({ id: messages.imageId })
      .from(messages)
      .where(and(inArray(messages.chatId, userChats), isNotNull(messages.imageId))),
    db
      .select({ id: analyses.imageId })
      .from(analyses)
      .where(and(inArray(analyses.chatId, userChats), isNotNull(analyses.imageId))),
    db
      .select({ id: analyses.heatmapImageId })
      .from(analyses)
      .where(and(inArray(analyses.chatId, userChats), isNotNull(analyses.heatmapImageId))),
  ];
  const { keys, chatCount } = await db.transaction(async (tx) => {
    // Images first, while the chats that point at them still exist to be found.
    const images = await tx
      .delete(storedImages)
      .where(and(spaceRows(storedImages, userId, null), or(...imageIds.map((q) => inArray(storedImages.id, q)))))
      .returning({ key: storedImages.storageKey });
    const deleted = await tx
      .delete(chats)
      .where(spaceRows(chats, userId, null))
      .returning({ id: chats.id });
    await recordAudit({
      db: tx,
      meta,
      entry: {
        actorUserId: userId,
        action: 'settings.clear_chats',
        objectType: 'user',
        objectId: userId,
        outcome: 'success',
        details: { chats: deleted.length, images: images.length },
      },
    });
    return { keys: images.map((i) => i.key), chatCount: deleted.length };
  });
  await deleteUnreferencedFiles({ db, images: opts.images, log: opts.log, keys });

  return { chats: chatCount, images: keys.length };
}
