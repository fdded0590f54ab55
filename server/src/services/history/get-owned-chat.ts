import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { chats } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { HISTORY_MESSAGES } from '@contracts/schemas/history.js';
import { chatColumns, type TChatRow } from './chat-view.js';
import { isUuid } from './keyset-cursor.js';

/**
 * The chat if it belongs to userId. Missing, malformed and foreign ids all throw the same
 * NOT_FOUND ('Chat not found'), so nobody can learn that another account's chat exists.
 */
export async function getOwnedChat(db: TDb, userId: string, chatId: string): Promise<TChatRow> {
  if (!isUuid(chatId)) throw new AppError('NOT_FOUND', HISTORY_MESSAGES.chatNotFound);
  const [row] = await db
    .select(chatColumns)
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', HISTORY_MESSAGES.chatNotFound);
  return row;
}
