import { and, eq } from 'drizzle-orm';
import { dicomInstances } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { WORKLIST_MESSAGES, type TWorklistStudyState } from '@contracts/schemas/worklist.js';
import { auditedAccess } from '../audit/audited-access.js';
import { ownedRow } from '../data-access/find-owned.js';
import { isUuid } from '../data-access/is-uuid.js';
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
      const { teamId, role } = await requireStudyReader({ db, userId, id });
      if (!teamId) throw new AppError('BAD_REQUEST', WORKLIST_MESSAGES.personalClaim);
      const holder = (await readStudyState({ db, id, timeoutMinutes })).claim?.userId;
      if (!holder) return readStudyState({ db, id, timeoutMinutes });
      if (holder !== userId && role !== 'admin') throw new AppError('FORBIDDEN', WORKLIST_MESSAGES.releaseNotYours);
      await db
        .update(dicomInstances)
        .set({ claimedBy: null, claimedAt: null })
        .where(
          and(
            ownedRow(dicomInstances, id, userId, WORKLIST_MESSAGES.notFound, 'review'),
            eq(dicomInstances.claimedBy, holder),
          ),
        );
      return readStudyState({ db, id, timeoutMinutes });
    },
  });
}
