import type { AppDeps } from '../../deps.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import type { TComparison } from '@contracts/schemas/timeline.js';
import { compareResults } from './compare-results.js';
import { findPriorAnalysis } from './find-prior-analysis.js';
import { loadChangeRule } from './load-change-margin.js';

/**
 * An accepted analysis of a patient profile compared with that patient's previous completed
 * one; null without a profile, without a prior, or for a refused image. Used by the finalizer
 * (the report's section), the grounded chat and the exports, so all three say the same.
 */
export async function compareWithPrior(
  opts: Pick<AppDeps, 'db' | 'config'> & {
    userId: string;
    profileId: string | null;
    analysisId: string;
    createdAt: Date;
    result: TStoredResult;
  },
): Promise<TComparison | null> {
  const { db, config, userId, profileId, analysisId, createdAt, result } = opts;
  if (!profileId || !result.gate.accepted) return null;
  const prior = await findPriorAnalysis({ db, userId, profileId, analysisId, createdAt });
  return prior ? compareResults(prior, result, loadChangeRule(config.MODEL_DIR)) : null;
}
