import { desc, inArray } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses } from '../../db/schema.js';
import type { TLatestAnalysis } from './chat-view.js';

/** The newest analysis of each chat, for a whole page of chats in one query (no N+1). */
export async function latestAnalysesOf(opts: { db: TDb; chatIds: readonly string[] }): Promise<Map<string, NonNullable<TLatestAnalysis>>> {
  const { db, chatIds } = opts;
  if (chatIds.length === 0) return new Map();

  const rows = await db
    .selectDistinctOn([analyses.chatId], { chatId: analyses.chatId, id: analyses.id, status: analyses.status, stage: analyses.stage })
    .from(analyses)
    .where(inArray(analyses.chatId, [...chatIds]))
    .orderBy(analyses.chatId, desc(analyses.createdAt), desc(analyses.id));
  return new Map(rows.map((r) => [r.chatId, { id: r.id, status: r.status, stage: r.stage }]));
}
