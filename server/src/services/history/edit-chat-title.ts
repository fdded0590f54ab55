import type { TDb } from '../../db/client.js';
import { chats } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { HISTORY_MESSAGES } from '@contracts/schemas/history.js';
import { auditedAccess } from '../audit/audited-access.js';
import { ownedRow } from '../data-access/find-owned.js';

/** Renames one of userId's chats; `title` is already trimmed and non-empty (ZChatTitle). */
export async function editChatTitle(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  chatId: string;
  title: string;
}) {
  const { db, userId, chatId, title } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'history.edit_title',
    objectType: 'chat',
    objectId: chatId,
    work: async () => {
      const [row] = await db
        .update(chats)
        .set({ title, updatedAt: new Date() })
        .where(ownedRow(chats, chatId, userId, HISTORY_MESSAGES.chatNotFound))
        .returning({ id: chats.id, title: chats.title, updatedAt: chats.updatedAt });
      if (!row) throw new AppError('NOT_FOUND', HISTORY_MESSAGES.chatNotFound);
      return { id: row.id, title: row.title, updatedAt: row.updatedAt.toISOString() };
    },
  });
}
