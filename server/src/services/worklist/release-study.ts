import { and, eq } from 'drizzle-orm';
import { studyClaims } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { WORKLIST_MESSAGES, type TWorklistStudyState } from '@contracts/schemas/worklist.js';
import { auditedAccess } from '../audit/audited-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { studyClaimAccess } from '../data-access/study-access.js';
import type { TStudyDeps } from './claim-study.js';
import { readStudyState } from './read-study-state.js';
import { requireStudyReader } from './require-study-reader.js';

/**
 * Releases a study's claim: the reader who holds it, or an admin of the team (a reader who left
 * for the day). Releasing a study nobody holds changes nothing and succeeds; another reader's
 * claim is FORBIDDEN to a radiologist. The write names the holder it read, so a claim taken
 * meanwhile by someone else is left alone.
 */
export async function releaseStudy(opts: TStudyDeps): Promise<TWorklistStudyState> {
  const { db, config, userId, id } = opts;
  const timeoutMinutes = config.WORKLIST_CLAIM_TIMEOUT_MINUTES;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'worklist.release',
    objectType: 'dicom_instance',
    objectId: isUuid(id) ? id : null,
    work: async () => {
      const { studyId, teamId, role } = await requireStudyReader({ db, userId, id });
      if (!teamId) throw new AppError('BAD_REQUEST', WORKLIST_MESSAGES.personalClaim);
      const state = () => readStudyState({ db, studyId, teamId, timeoutMinutes });
      const holder = (await state()).claim?.userId;
      if (!holder) return state();
      if (holder !== userId && role !== 'admin') throw new AppError('FORBIDDEN', WORKLIST_MESSAGES.releaseNotYours);
      await db
        .update(studyClaims)
        .set({ claimedBy: null, claimedAt: null })
        .where(
          and(eq(studyClaims.studyId, studyId), studyClaimAccess(userId, 'review'), eq(studyClaims.claimedBy, holder)),
        );
      return state();
    },
  });
}
