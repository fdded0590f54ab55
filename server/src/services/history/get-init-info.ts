import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import { auditedAccess } from '../audit/audited-access.js';
import { resolveSpace } from '../data-access/team-role.js';
import { toLegacyChat } from './chat-view.js';
import { messagesOfChats } from './get-chat.js';
import { chatPageQuery } from './list-chats.js';

/**
 * The spec's GET /history/get-init-info has no paging, so it is capped: the newest
 * INIT_INFO_CHAT_CAP chats, each with all its messages. Older chats stay reachable through the
 * paginated tRPC history.list / history.get.
 */
export const INIT_INFO_CHAT_CAP = 200;

/** Two queries whatever the number of chats: one page of chats, then all their messages. */
export async function getInitInfo(opts: { db: TDb; meta: RequestMeta | null; userId: string; teamId?: string | null }) {
  const { db, userId } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'history.init_info',
    objectType: 'chat',
    work: async () => {
      const teamId = await resolveSpace({ db, userId, teamId: opts.teamId });
      const chatRows = await chatPageQuery({ db, userId, teamId, after: null, take: INIT_INFO_CHAT_CAP });
      const byChat = await messagesOfChats({ db, chatIds: chatRows.map((c) => c.id) });

      return { chats: chatRows.map((c) => toLegacyChat(c, byChat.get(c.id) ?? [])) };
    },
    detailsOf: (out) => ({ count: out.chats.length }),
  });
}
