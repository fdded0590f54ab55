import type { TDb } from '../../db/client.js';
import type { TImpressionChange } from '../report/impression-changes.js';
import type { TFinding } from '@contracts/schemas/analysis.js';
import { upsertFindingFeedback } from './upsert-finding-feedback.js';

export const IMPRESSION_NOTES: Record<TImpressionChange, string> = {
  removed: 'Removed from the impression when the report was signed',
  added: 'Added to the impression when the report was signed',
};

/**
 * The signer's changes to the AI's impression as their feedback on each finding (issue 41), so
 * that site calibration and the drift monitor count them like the findings panel's: a removed
 * finding reads absent, an added one present, both disagreeing with the model. It replaces the
 * signer's earlier reading of the same finding, as a second panel answer would.
 */
export async function saveImpressionFeedback(opts: {
  db: TDb;
  userId: string;
  analysis: { id: string; teamId: string | null; chatId: string; modelVersion: string };
  changes: readonly { finding: TFinding; change: TImpressionChange }[];
}): Promise<void> {
  const { db, userId, analysis, changes } = opts;
  for (const { finding, change } of changes) {
    const values = {
      verdict: 'disagree' as const,
      reading: change === 'removed' ? ('absent' as const) : ('present' as const),
      note: IMPRESSION_NOTES[change],
      modelVersion: analysis.modelVersion,
      modelProbability: finding.probability,
      modelCall: finding.call,
    };
    await upsertFindingFeedback(
      db,
      { userId, teamId: analysis.teamId, chatId: analysis.chatId, analysisId: analysis.id, finding: finding.label },
      values,
    );
  }
}
