import type { TDb } from '../../db/client.js';
import { chats } from '../../db/schema.js';
import { HISTORY_MESSAGES } from '@contracts/schemas/history.js';
import { chatColumns, type TChatRow } from './chat-view.js';
import { findOwned } from '../data-access/find-owned.js';

/**
 * The chat if it belongs to userId. Missing, malformed and foreign ids all throw the same
 * NOT_FOUND ('Chat not found'), so nobody can learn that another account's chat exists.
 */
export async function getOwnedChat(opts: { db: TDb; userId: string; chatId: string }): Promise<TChatRow> {
  return findOwned({
    db: opts.db,
    table: chats,
    id: opts.chatId,
    userId: opts.userId,
    columns: chatColumns,
    notFound: HISTORY_MESSAGES.chatNotFound,
  });
}
