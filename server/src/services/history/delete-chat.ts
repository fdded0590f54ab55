import { eq } from 'drizzle-orm';
import { chats } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { HISTORY_MESSAGES } from '@contracts/schemas/history.js';
import { deleteUnreferencedImages, imageIdsOfChats } from '../images/delete-unreferenced-images.js';
import { auditedAccess } from '../audit/audited-access.js';
import { ownedRow } from '../data-access/find-owned.js';

/**
 * Deletes one of userId's chats: its messages and analyses go with it (foreign keys cascade),
 * then its images, rows and files, unless something else still references them.
 */
export async function deleteChat(
  opts: Pick<AppDeps, 'db' | 'images' | 'log'> & { meta: RequestMeta | null; userId: string; chatId: string },
): Promise<void> {
  const { db, images, log, userId, chatId } = opts;
  await auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'history.delete',
    objectType: 'chat',
    objectId: chatId,
    work: async () => {
      const owner = ownedRow(chats, chatId, userId, HISTORY_MESSAGES.chatNotFound);
      const { imageIds, teamId } = await db.transaction(async (tx) => {
        const [owned] = await tx.select({ id: chats.id, teamId: chats.teamId }).from(chats).where(owner).for('update');
        if (!owned) throw new AppError('NOT_FOUND', HISTORY_MESSAGES.chatNotFound);
        const ids = await imageIdsOfChats({ db: tx as unknown as typeof db, chatIds: [chatId] });
        await tx.delete(chats).where(eq(chats.id, chatId));
        return { imageIds: ids, teamId: owned.teamId };
      });
      return { teamId, images: await deleteUnreferencedImages({ db, images, log, imageIds }) };
    },
    // The chat is gone when the entry is written: its team is named here (services/audit/audit-team.ts).
    detailsOf: (out) => ({ images: out.images, teamId: out.teamId }),
  });
}
