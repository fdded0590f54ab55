import { and, eq, isNotNull } from 'drizzle-orm';
import { analyses, dicomInstances } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { ANALYSIS_MESSAGES } from '@contracts/schemas/analysis.js';
import type { TWorklistStudyState } from '@contracts/schemas/worklist.js';
import { findOwned, rowAccess } from '../data-access/find-owned.js';
import { readStudyState } from './read-study-state.js';

/**
 * The viewer's reading bar (issue 41): the team study an analysis was made for, with who reads it
 * now, so Claim and Release live beside the film too. Null when the analysis is no team's network
 * study (a personal one, a browser upload: nothing to claim); an analysis the caller cannot read
 * is NOT_FOUND, like a missing one.
 */
export async function readAnalysisStudy(
  opts: Pick<AppDeps, 'db' | 'config'> & { userId: string; analysisId: string },
): Promise<TWorklistStudyState | null> {
  const { db, userId, analysisId } = opts;
  await findOwned({
    db,
    table: analyses,
    id: analysisId,
    userId,
    columns: { id: analyses.id },
    notFound: ANALYSIS_MESSAGES.analysisNotFound,
  });
  const [row] = await db
    .select({ id: dicomInstances.id })
    .from(dicomInstances)
    .where(
      and(
        eq(dicomInstances.analysisId, analysisId),
        isNotNull(dicomInstances.teamId),
        rowAccess(dicomInstances, userId, 'read'),
      ),
    )
    .limit(1);
  if (!row) return null;
  return readStudyState({ db, id: row.id, timeoutMinutes: opts.config.WORKLIST_CLAIM_TIMEOUT_MINUTES });
}
