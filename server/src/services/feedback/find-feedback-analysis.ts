import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { TDb } from '../../db/client.js';
import { analyses } from '../../db/schema.js';
import { ZFinding, type TFinding } from '@contracts/schemas/analysis.js';
import { rowAccess } from '../data-access/find-owned.js';

/** Only what feedback needs from the stored result; the rest of the JSONB is not read. */
const ZFindingsOnly = z.object({ modelVersion: z.string(), findings: z.array(ZFinding) });

export interface TFeedbackAnalysis {
  id: string;
  /** The analysis's team (null: personal): the reading goes to the same space. */
  teamId: string | null;
  modelVersion: string;
  findings: TFinding[];
}

/**
 * The chat's newest completed analysis (the one the findings panel shows), or null. The caller
 * has already checked that the chat is the user's; userId is repeated here as a second guard.
 */
export async function findFeedbackAnalysis(opts: {
  db: TDb;
  userId: string;
  chatId: string;
}): Promise<TFeedbackAnalysis | null> {
  const { db, userId, chatId } = opts;
  const [row] = await db
    .select({ id: analyses.id, teamId: analyses.teamId, result: analyses.result })
    .from(analyses)
    .where(and(eq(analyses.chatId, chatId), rowAccess(analyses, userId, 'read'), eq(analyses.status, 'completed')))
    .orderBy(desc(analyses.createdAt), desc(analyses.id))
    .limit(1);
  const parsed = ZFindingsOnly.safeParse(row?.result);
  if (!row || !parsed.success) return null;
  return { id: row.id, teamId: row.teamId, modelVersion: parsed.data.modelVersion, findings: parsed.data.findings };
}
