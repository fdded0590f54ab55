import { and, eq, not, or, sql } from 'drizzle-orm';
import { dicomInstances } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { WORKLIST_MESSAGES, type TWorklistStudyState } from '@contracts/schemas/worklist.js';
import { auditedAccess } from '../audit/audited-access.js';
import { ownedRow } from '../data-access/find-owned.js';
import { isUuid } from '../data-access/is-uuid.js';
import { activeClaimSql } from '../dicom-node/worklist-urgency-sql.js';
import { readStudyState } from './read-study-state.js';
import { requireStudyReader } from './require-study-reader.js';

export type TStudyDeps = Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; id: string };

/**
 * Claims a team study for the caller ("being read by Dr X"). Free means unclaimed, or claimed
 * longer ago than WORKLIST_CLAIM_TIMEOUT_MINUTES (no timer releases it: the SQL reads an old claim
 * as none); claiming one's own claim again restarts its clock. Held by someone else: CONFLICT
 * naming the reader. The free test and the write are one statement, so two radiologists racing
 * for a study cannot both win.
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
      const { teamId } = await requireStudyReader({ db, userId, id });
      if (!teamId) throw new AppError('BAD_REQUEST', WORKLIST_MESSAGES.personalClaim);
      const [claimed] = await db
        .update(dicomInstances)
        .set({ claimedBy: userId, claimedAt: sql`now()` })
        .where(
          and(
            ownedRow(dicomInstances, id, userId, WORKLIST_MESSAGES.notFound, 'review'),
            or(not(activeClaimSql(timeoutMinutes)), eq(dicomInstances.claimedBy, userId)),
          ),
        )
        .returning({ id: dicomInstances.id });
      const state = await readStudyState({ db, id, timeoutMinutes });
      if (!claimed) throw new AppError('CONFLICT', WORKLIST_MESSAGES.heldBy(state.claim?.name ?? 'another reader'));
      return state;
    },
  });
}
