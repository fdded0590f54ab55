import { and, eq, not, or, sql } from 'drizzle-orm';
import { studyClaims } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import {
  WORKLIST_MESSAGES,
  ZReviewStudyInput,
  type TReviewStudyInput,
  type TWorklistStudyState,
} from '@contracts/schemas/worklist.js';
import { auditedAccess } from '../audit/audited-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { studyClaimAccess, studyRowAccess } from '../data-access/study-access.js';
import { activeClaimSql } from '../dicom-node/worklist-urgency-sql.js';
import { rowsOf } from './claim-study.js';
import { readStudyState } from './read-study-state.js';
import { requireStudyReader } from './require-study-reader.js';

/**
 * Marks a study reviewed by the caller (or takes the mark back with `reviewed: false`): a
 * radiologist or admin of its team, or the owner of a personal study. In a team only the reader
 * holding the claim marks it reviewed (issue 41): unclaimed, CONFLICT "claim it first"; another
 * reader's, CONFLICT naming them. Marking it reviewed ends the caller's claim (in a personal
 * study nobody claims).
 */
export async function reviewStudy(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; input: TReviewStudyInput },
): Promise<TWorklistStudyState> {
  const { db, config, userId } = opts;
  const { id, reviewed } = ZReviewStudyInput.parse(opts.input);
  const timeoutMinutes = config.WORKLIST_CLAIM_TIMEOUT_MINUTES;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: reviewed ? 'worklist.review' : 'worklist.unreview',
    objectType: 'dicom_instance',
    objectId: isUuid(id) ? id : null,
    work: async () => {
      const study = await requireStudyReader({ db, userId, id });
      const { studyId, teamId } = study;
      const mine = eq(studyClaims.claimedBy, userId);
      const active = teamId ? activeClaimSql(timeoutMinutes, teamId) : sql<boolean>`false`;
      const done =
        teamId && reviewed
          ? // In a team the mark is the claim holder's, so the study's row exists already.
            await db
              .update(studyClaims)
              .set({ reviewedBy: userId, reviewedAt: sql`now()`, claimedBy: null, claimedAt: null })
              .where(and(eq(studyClaims.studyId, studyId), studyClaimAccess(userId, 'review'), mine, active))
              .returning({ studyId: studyClaims.studyId })
          : // A personal study, or a mark taken back: that only waits for no other reader.
            rowsOf<{ study_id: string }>(
              await db.execute<{ study_id: string }>(sql`
        insert into ${studyClaims} (study_id, instance_id, analysis_id, reviewed_by, reviewed_at)
        select ${studyId}::uuid, ${study.instanceId}::uuid, ${study.analysisId}::uuid, ${reviewed ? sql`${userId}::uuid, now()` : sql`null, null`}
        where ${studyRowAccess(study, userId, 'review')}
        on conflict (study_id) do update set reviewed_by = excluded.reviewed_by, reviewed_at = excluded.reviewed_at
        where ${or(not(active), mine)}
        returning study_id`),
            );
      const state = await readStudyState({ db, studyId, teamId, timeoutMinutes });
      if (!done.length)
        throw new AppError(
          'CONFLICT',
          state.claim ? WORKLIST_MESSAGES.heldBy(state.claim.name) : WORKLIST_MESSAGES.claimFirst,
        );
      return state;
    },
  });
}
