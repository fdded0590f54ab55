import { and, eq, sql, type SQL } from 'drizzle-orm';
import { reports, studyClaims, users } from '../../db/schema.js';
import type { TDb } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { REPORT_MESSAGES } from '@contracts/schemas/report.js';
import { findStudyOfAnalysis, type TStudyRef } from '../data-access/study-access.js';
import { activeClaimSql } from '../dicom-node/worklist-urgency-sql.js';
import { readStudyState } from '../worklist/read-study-state.js';

export interface TReportWriteGuard {
  /** The WHERE of the report's UPDATE: this report, at the revision the reader read, and (in a team) claimed by them. */
  where: SQL;
  /** The team study whose claim the write needs (and a signature ends); null for a personal study. */
  study: TStudyRef | null;
  /** Why the guarded UPDATE changed nothing, as the error to throw. */
  refusal(opts: { whenSigned: string }): Promise<AppError>;
}

/**
 * The conditions every save, signature and addendum of a report is written under (issues 46 M3,
 * 49): the reader's `revision` must still be the report's, so nothing another reader wrote in
 * between is overwritten; and a team study's draft is written only by the reader holding its
 * claim (`needsClaim`), as a review mark is. Both are in the UPDATE's own WHERE, so a change or
 * a claim landing meanwhile cannot slip between the check and the write. The caller has passed
 * the report's access rule (report-access.ts).
 */
export async function guardReportWrite(
  opts: Pick<AppDeps, 'db' | 'config'> & { userId: string; analysisId: string; revision: number; needsClaim: boolean },
): Promise<TReportWriteGuard> {
  const { db, userId, analysisId, revision } = opts;
  const timeoutMinutes = opts.config.WORKLIST_CLAIM_TIMEOUT_MINUTES;
  const study = opts.needsClaim ? await findStudyOfAnalysis({ db, userId, analysisId }) : null;
  const claimHeld =
    study?.teamId &&
    sql`exists (select 1 from ${studyClaims} where ${studyClaims.studyId} = ${study.studyId} and ${studyClaims.claimedBy} = ${userId} and ${activeClaimSql(timeoutMinutes, study.teamId)})`;
  return {
    where: and(eq(reports.analysisId, analysisId), eq(reports.revision, revision), claimHeld || undefined)!,
    study,
    refusal: async ({ whenSigned }) => {
      const [row] = await db
        .select({
          status: reports.status,
          revision: reports.revision,
          name: sql<string | null>`coalesce(${users.name}, ${reports.signedByName})`,
          revisedAt: reports.revisedAt,
          updatedAt: reports.updatedAt,
        })
        .from(reports)
        .leftJoin(users, eq(users.id, reports.revisedBy))
        .where(eq(reports.analysisId, analysisId))
        .limit(1);
      if (!row) return new AppError('NOT_FOUND', REPORT_MESSAGES.notFound);
      if (row.revision !== revision)
        return new AppError(
          'CONFLICT',
          REPORT_MESSAGES.stale(row.name ?? 'another reader', row.revisedAt ?? row.updatedAt),
        );
      if (row.status !== 'draft' || !study?.teamId) return new AppError('CONFLICT', whenSigned);
      const { claim } = await readStudyState({ db, studyId: study.studyId, teamId: study.teamId, timeoutMinutes });
      return new AppError('CONFLICT', claim ? REPORT_MESSAGES.heldBy(claim.name) : REPORT_MESSAGES.claimFirst);
    },
  };
}

/** The columns every accepted write sets: the next revision, by whom, when. */
export function nextRevision(userId: string) {
  return { revision: sql`${reports.revision} + 1`, revisedBy: userId, revisedAt: sql`now()`, updatedAt: sql`now()` };
}

/** A signature ends the study's reading (issue 49): whoever held the claim, it is free. */
export async function endStudyClaim(opts: { db: TDb; study: TStudyRef | null }): Promise<void> {
  if (!opts.study) return;
  await opts.db
    .update(studyClaims)
    .set({ claimedBy: null, claimedAt: null })
    .where(eq(studyClaims.studyId, opts.study.studyId));
}
