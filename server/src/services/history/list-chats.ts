import { and, sql, type Placeholder } from 'drizzle-orm';
import { arrayRowStatement } from '../../db/array-row-statement.js';
import type { TDb } from '../../db/client.js';
import { chats } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import type { THistoryListOutput } from '@contracts/schemas/history.js';
import { auditedAccess } from '../audit/audited-access.js';
import { chatColumns, toChatSummary, type TChatRow } from './chat-view.js';
import { keysetPage } from '../data-access/keyset-page.js';
import { spaceRows } from '../data-access/find-owned.js';
import { resolveSpace } from '../data-access/team-role.js';
import type { TKeysetPosition } from './keyset-cursor.js';
import { latestAnalysesOf } from './latest-analyses.js';

type TParam<T> = T | Placeholder;

/**
 * One keyset page of a space's chats (userId's personal ones, or a team's), newest first: the
 * order chats_user_created_idx and chats_team_created_idx store (created_at desc, id desc), so
 * the cost of a page does not grow with the account. Values or placeholders, so the prepared
 * statements below (the personal space's) are built from the same query.
 */
function selectChatPage(opts: {
  db: TDb;
  userId: TParam<string>;
  teamId: string | null;
  after: { createdAt: TParam<string>; id: TParam<string> } | null;
  take: TParam<number>;
}) {
  const { db, userId, teamId, after, take } = opts;
  return (
    db
      .select(chatColumns)
      .from(chats)
      .where(
        and(
          spaceRows(chats, userId, teamId),
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
export function chatPageQuery(opts: {
  db: TDb;
  userId: string;
  teamId?: string | null;
  after: TKeysetPosition | null;
  take: number;
}) {
  return selectChatPage({ ...opts, teamId: opts.teamId ?? null });
}

// history.list's two page shapes (first page, and a page after a cursor), built once.
const firstPage = arrayRowStatement<{ userId: string; take: number }>('history_list_first', (db) =>
  selectChatPage({ db, userId: sql.placeholder('userId'), teamId: null, after: null, take: sql.placeholder('take') }),
);
const pageAfter = arrayRowStatement<{ userId: string; afterTs: string; afterId: string; take: number }>(
  'history_list_after',
  (db) =>
    selectChatPage({
      db,
      userId: sql.placeholder('userId'),
      teamId: null,
      after: { createdAt: sql.placeholder('afterTs'), id: sql.placeholder('afterId') },
      take: sql.placeholder('take'),
    }),
);

/** A row of chatColumns, in their order (selectChatPage selects exactly those). */
function chatRowOf(r: unknown[]): TChatRow {
  return {
    id: r[0] as string,
    userId: r[1] as string,
    profileId: r[2] as string | null,
    title: r[3] as string,
    patient: r[4] as TChatRow['patient'],
    imageId: r[5] as string | null,
    createdAt: r[6] as Date,
    updatedAt: r[7] as Date,
    cursorTs: r[8] as string,
    teamId: r[9] as string | null,
  };
}

/** chatPageQuery's rows through the statements above for the personal space (what history.list runs). */
export async function preparedChatPage(opts: {
  db: TDb;
  userId: string;
  teamId?: string | null;
  after: TKeysetPosition | null;
  take: number;
}): Promise<TChatRow[]> {
  const { db, userId, teamId, after, take } = opts;
  // A team's page is not prepared: the personal page is the hot path history.list benches.
  if (teamId) return selectChatPage({ db, userId, teamId, after, take });
  const rows = after
    ? await pageAfter(db, { userId, afterTs: after.createdAt, afterId: after.id, take })
    : await firstPage(db, { userId, take });
  return rows.map(chatRowOf);
}

export async function listChats(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  teamId?: string | null;
  cursor?: string | null;
  limit: number;
}): Promise<THistoryListOutput> {
  const { db, userId } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'history.list',
    objectType: 'chat',
    work: async () => {
      const teamId = await resolveSpace({ db, userId, teamId: opts.teamId });
      const page = await keysetPage(opts.cursor, opts.limit, (after, take) =>
        preparedChatPage({ db, userId, teamId, after, take }),
      );
      const latest = await latestAnalysesOf({ db, chatIds: page.rows.map((c) => c.id) });

      return { items: page.rows.map((c) => toChatSummary(c, latest.get(c.id) ?? null)), nextCursor: page.nextCursor };
    },
    detailsOf: (out) => ({ count: out.items.length, teamId: opts.teamId ?? null }),
  });
}
