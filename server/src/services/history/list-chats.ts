import { and, eq, sql, type Placeholder } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { chats } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import type { THistoryListOutput } from '@contracts/schemas/history.js';
import { auditedAccess } from './audited-access.js';
import { chatColumns, toChatSummary, type TChatRow } from './chat-view.js';
import { keysetPage } from '../data-access/keyset-page.js';
import type { TKeysetPosition } from './keyset-cursor.js';
import { latestAnalysesOf } from './latest-analyses.js';
import { preparedPerDb } from './prepare-once.js';

type TParam<T> = T | Placeholder;

/**
 * One keyset page of userId's chats, newest first: the order chats_user_created_idx stores
 * (user_id, created_at desc, id desc), so the cost of a page does not grow with the account.
 * Values or placeholders, so the prepared statements below are built from the same query.
 */
function selectChatPage(
  db: TDb,
  userId: TParam<string>,
  after: { createdAt: TParam<string>; id: TParam<string> } | null,
  take: TParam<number>,
) {
  return (
    db
      .select(chatColumns)
      .from(chats)
      .where(
        and(
          eq(chats.userId, userId),
          after
            ? sql`(${chats.createdAt}, ${chats.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
            : undefined,
        ),
      )
      // NULLS LAST spelled out: the index is (created_at DESC NULLS LAST, id DESC NULLS LAST) and a
      // plain DESC means NULLS FIRST, which the planner cannot serve from it (columns are NOT NULL,
      // but the planner does not use that), so it would sort the whole account instead.
      .orderBy(sql`${chats.createdAt} desc nulls last`, sql`${chats.id} desc nulls last`)
      .limit(take)
  );
}

/** bench/history/explain-history.ts prints this query's plan. */
export function chatPageQuery(opts: { db: TDb; userId: string; after: TKeysetPosition | null; take: number }) {
  return selectChatPage(opts.db, opts.userId, opts.after, opts.take);
}

// history.list's two page shapes (first page, and a page after a cursor), prepared once.
const firstPage = preparedPerDb((db) =>
  selectChatPage(db, sql.placeholder('userId'), null, sql.placeholder('take')).prepare('history_list_first'),
);
const pageAfter = preparedPerDb((db) =>
  selectChatPage(
    db,
    sql.placeholder('userId'),
    { createdAt: sql.placeholder('afterTs'), id: sql.placeholder('afterId') },
    sql.placeholder('take'),
  ).prepare('history_list_after'),
);

/** chatPageQuery's rows through the prepared statements (what history.list runs). */
export function preparedChatPage(opts: {
  db: TDb;
  userId: string;
  after: TKeysetPosition | null;
  take: number;
}): Promise<TChatRow[]> {
  const { db, userId, after, take } = opts;
  return after
    ? pageAfter(db).execute({ userId, afterTs: after.createdAt, afterId: after.id, take })
    : firstPage(db).execute({ userId, take });
}

export async function listChats(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  cursor?: string | null;
  limit: number;
}): Promise<THistoryListOutput> {
  const { db, userId } = opts;
  return auditedAccess(
    { db, meta: opts.meta, userId },
    { action: 'history.list', objectType: 'chat' },
    async () => {
      const page = await keysetPage(opts.cursor, opts.limit, (after, take) =>
        preparedChatPage({ db, userId, after, take }),
      );
      const latest = await latestAnalysesOf({ db, chatIds: page.rows.map((c) => c.id) });

      return { items: page.rows.map((c) => toChatSummary(c, latest.get(c.id) ?? null)), nextCursor: page.nextCursor };
    },
    (out) => ({ count: out.items.length }),
  );
}
