import { eq } from 'drizzle-orm';
import { analyses } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import type { TComparison } from '@contracts/schemas/timeline.js';
import { changeRuleOf } from '../models/read-model-facts.js';
import { compareResults } from './compare-results.js';
import { findPriorAnalysis } from './find-prior-analysis.js';

/**
 * An accepted analysis of a patient profile compared with that patient's previous completed
 * one; null without a profile, without a prior, or for a refused image. Used by the finalizer
 * (the report's section), the grounded chat and the exports, so all three say the same. A change
 * is called only by the measured spread of the one model that made both (issue 47).
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
  if (!prior) return null;
  const [made] = await db
    .select({ modelId: analyses.modelId })
    .from(analyses)
    .where(eq(analyses.id, analysisId))
    .limit(1);
  return compareResults(prior, result, changeRuleOf(config, prior.modelId, made?.modelId));
}
