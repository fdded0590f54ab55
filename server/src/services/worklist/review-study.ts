import { and, eq, not, or, sql } from 'drizzle-orm';
import { dicomInstances } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import {
  WORKLIST_MESSAGES,
  ZReviewStudyInput,
  type TReviewStudyInput,
  type TWorklistStudyState,
} from '@contracts/schemas/worklist.js';
import { auditedAccess } from '../audit/audited-access.js';
import { ownedRow } from '../data-access/find-owned.js';
import { isUuid } from '../data-access/is-uuid.js';
import { activeClaimSql } from '../dicom-node/worklist-urgency-sql.js';
import { readStudyState } from './read-study-state.js';
import { requireStudyReader } from './require-study-reader.js';

/**
 * Marks a study reviewed by the caller (or takes the mark back with `reviewed: false`): a
 * radiologist or admin of its team, or the owner of a personal study. Marking it reviewed ends
 * the caller's claim. A study another reader has claimed is theirs to finish: CONFLICT naming
 * them, as for a claim.
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
      await requireStudyReader({ db, userId, id });
      const mine = eq(dicomInstances.claimedBy, userId);
      const [done] = await db
        .update(dicomInstances)
        .set({
          reviewedBy: reviewed ? userId : null,
          reviewedAt: reviewed ? sql`now()` : null,
          // Reviewed: the caller's reading is over, their claim with it.
          ...(reviewed ? { claimedBy: sql`case when ${mine} then null else ${dicomInstances.claimedBy} end` } : {}),
          ...(reviewed ? { claimedAt: sql`case when ${mine} then null else ${dicomInstances.claimedAt} end` } : {}),
        })
        .where(
          and(
            ownedRow(dicomInstances, id, userId, WORKLIST_MESSAGES.notFound, 'review'),
            or(not(activeClaimSql(timeoutMinutes)), mine),
          ),
        )
        .returning({ id: dicomInstances.id });
      const state = await readStudyState({ db, id, timeoutMinutes });
      if (!done) throw new AppError('CONFLICT', WORKLIST_MESSAGES.heldBy(state.claim?.name ?? 'another reader'));
      return state;
    },
  });
}
