import { analyses } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { ANALYSIS_MESSAGES } from '@contracts/schemas/analysis.js';
import type { TWorklistStudyState } from '@contracts/schemas/worklist.js';
import { findOwned } from '../data-access/find-owned.js';
import { findStudyOfAnalysis } from '../data-access/study-access.js';
import { readStudyState } from './read-study-state.js';

/**
 * The viewer's reading bar (issue 41): the team study an analysis was made for (a network study
 * or, since issue 49, a film uploaded into the team), with who reads it now, so Claim and Release
 * live beside the film too. Null when the analysis is a personal study (nothing to claim); an
 * analysis the caller cannot read is NOT_FOUND, like a missing one.
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
  const study = await findStudyOfAnalysis({ db, userId, analysisId });
  if (!study) return null;
  return readStudyState({
    db,
    studyId: study.studyId,
    teamId: study.teamId,
    timeoutMinutes: opts.config.WORKLIST_CLAIM_TIMEOUT_MINUTES,
  });
}
