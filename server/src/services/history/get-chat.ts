import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { messages } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import type { THistoryGetOutput } from '@contracts/schemas/history.js';
import { auditedAccess } from '../audit/audited-access.js';
import { messageColumns, patientOf, toChatMessage, toChatSummary, type TMessageRow } from './chat-view.js';
import { keysetPage } from '../data-access/keyset-page.js';
import { getOwnedChat } from './get-owned-chat.js';
import { latestAnalysesOf } from './latest-analyses.js';

/**
 * One chat with its newest `limit` messages before the cursor, in display order. A chat view
 * opens at the bottom, so pages go backwards: olderCursor loads the ones above.
 */
export async function getChat(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  chatId: string;
  cursor?: string | null;
  limit: number;
}): Promise<THistoryGetOutput> {
  const { db, userId, chatId, limit } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'history.read',
    objectType: 'chat',
    objectId: chatId,
    work: async () => {
      const chat = await getOwnedChat({ db, userId, chatId });
      // Newest first along (created_at, id), then shown oldest first.
      const older = await keysetPage(opts.cursor, limit, (before, take): Promise<TMessageRow[]> =>
        db
          .select(messageColumns)
          .from(messages)
          .where(
            and(
              eq(messages.chatId, chat.id),
              before
                ? sql`(${messages.createdAt}, ${messages.id}) < (${before.createdAt}::timestamptz, ${before.id}::uuid)`
                : undefined,
            ),
          )
          .orderBy(desc(messages.createdAt), desc(messages.id))
          .limit(take),
      );
      const latest = await latestAnalysesOf({ db, chatIds: [chat.id] });
      const patient = patientOf(chat);
      return {
        chat: {
          ...toChatSummary(chat, latest.get(chat.id) ?? null),
          patientAge: patient.age,
          medicalHistory: patient.medical_history,
        },
        messages: older.rows.reverse().map(toChatMessage),
        olderCursor: older.nextCursor,
      };
    },
  });
}

/** Every message of the given chats in one query (no N+1), grouped by chat in display order. */
export async function messagesOfChats(opts: {
  db: TDb;
  chatIds: readonly string[];
}): Promise<Map<string, TMessageRow[]>> {
  const { db, chatIds } = opts;
  const byChat = new Map<string, TMessageRow[]>();

  if (chatIds.length === 0) return byChat;
  const rows: TMessageRow[] = await db
    .select(messageColumns)
    .from(messages)
    .where(inArray(messages.chatId, [...chatIds]))
    .orderBy(asc(messages.chatId), asc(messages.createdAt), asc(messages.id));
  for (const row of rows) {
    const list = byChat.get(row.chatId);
    if (list) list.push(row);
    else byChat.set(row.chatId, [row]);
  }
  return byChat;
}
