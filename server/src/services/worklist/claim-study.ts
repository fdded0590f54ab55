import { eq, not, or, sql } from 'drizzle-orm';
import { studyClaims } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { WORKLIST_MESSAGES, type TWorklistStudyState } from '@contracts/schemas/worklist.js';
import { auditedAccess } from '../audit/audited-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { studyRowAccess } from '../data-access/study-access.js';
import { activeClaimSql } from '../dicom-node/worklist-urgency-sql.js';
import { readStudyState } from './read-study-state.js';
import { requireStudyReader } from './require-study-reader.js';

export type TStudyDeps = Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; id: string };

/**
 * Claims a team study for the caller ("being read by Dr X"): a network instance or a browser
 * upload, one model (issue 49). Free means unclaimed, or claimed longer ago than
 * WORKLIST_CLAIM_TIMEOUT_MINUTES (no timer releases it: the SQL reads an old claim as none);
 * claiming one's own claim again restarts its clock. Held by someone else: CONFLICT naming the
 * reader. The free test and the write are one statement (an upsert whose update is conditional),
 * so two radiologists racing for a study cannot both win.
 */
export async function claimStudy(opts: TStudyDeps): Promise<TWorklistStudyState> {
  const { db, config, userId, id } = opts;
  const timeoutMinutes = config.WORKLIST_CLAIM_TIMEOUT_MINUTES;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'worklist.claim',
    objectType: 'dicom_instance',
    objectId: isUuid(id) ? id : null,
    work: async () => {
      const study = await requireStudyReader({ db, userId, id });
      if (!study.teamId) throw new AppError('BAD_REQUEST', WORKLIST_MESSAGES.personalClaim);
      const teamId = study.teamId;
      const claimed = await db.execute<{ study_id: string }>(sql`
        insert into ${studyClaims} (study_id, instance_id, analysis_id, claimed_by, claimed_at)
        select ${study.studyId}::uuid, ${study.instanceId}::uuid, ${study.analysisId}::uuid, ${userId}::uuid, now()
        where ${studyRowAccess(study, userId, 'review')}
        on conflict (study_id) do update set claimed_by = excluded.claimed_by, claimed_at = excluded.claimed_at
        where ${or(not(activeClaimSql(timeoutMinutes, teamId)), eq(studyClaims.claimedBy, userId))}
        returning study_id`);
      const state = await readStudyState({ db, studyId: study.studyId, teamId, timeoutMinutes });
      if (!rowsOf<{ study_id: string }>(claimed).length)
        throw new AppError('CONFLICT', WORKLIST_MESSAGES.heldBy(state.claim?.name ?? 'another reader'));
      return state;
    },
  });
}

/** The rows of a raw statement: node-postgres and PGlite both answer { rows }. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
