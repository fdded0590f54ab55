import { desc, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses } from '../../db/schema.js';
import type { TLatestAnalysis } from './chat-view.js';
import { arrayRowStatement } from '../../db/array-row-statement.js';

// One statement for any number of chats (an array parameter, not an IN list whose length would
// change the text), so it is prepared once: history.list runs it on every page.
const latestOfChats = arrayRowStatement<{ chatIds: string[] }>('history_latest_analyses', (db) =>
  db
    .selectDistinctOn([analyses.chatId], {
      chatId: analyses.chatId,
      id: analyses.id,
      status: analyses.status,
      stage: analyses.stage,
    })
    .from(analyses)
    .where(sql`${analyses.chatId} = any(${sql.placeholder('chatIds')}::uuid[])`)
    .orderBy(analyses.chatId, desc(analyses.createdAt), desc(analyses.id)),
);

/** The newest analysis of each chat, for a whole page of chats in one query (no N+1). */
export async function latestAnalysesOf(opts: {
  db: TDb;
  chatIds: readonly string[];
}): Promise<Map<string, NonNullable<TLatestAnalysis>>> {
  const { db, chatIds } = opts;
  if (chatIds.length === 0) return new Map();

  const rows = await latestOfChats(db, { chatIds: [...chatIds] });
  // Columns in the select's order: chatId, id, status, stage.
  type TLatest = NonNullable<TLatestAnalysis>;
  return new Map(
    rows.map((r) => [
      r[0] as string,
      { id: r[1] as string, status: r[2] as TLatest['status'], stage: r[3] as TLatest['stage'] },
    ]),
  );
}
