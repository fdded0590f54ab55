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
 * radiologist or admin of its team, or the owner of a personal study. In a team only the reader
 * holding the claim marks it reviewed (issue 41): unclaimed, CONFLICT "claim it first"; another
 * reader's, CONFLICT naming them. Marking it reviewed ends the caller's claim.
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
      const { teamId } = await requireStudyReader({ db, userId, id });
      const mine = eq(dicomInstances.claimedBy, userId);
      const active = activeClaimSql(timeoutMinutes);
      // In a team the mark is the claim holder's; taking it back only waits for no other reader.
      const allowed = teamId && reviewed ? and(mine, active) : or(not(active), mine);
      const [done] = await db
        .update(dicomInstances)
        .set({
          reviewedBy: reviewed ? userId : null,
          reviewedAt: reviewed ? sql`now()` : null,
          // Reviewed: the caller's reading is over, their claim with it.
          ...(reviewed ? { claimedBy: sql`case when ${mine} then null else ${dicomInstances.claimedBy} end` } : {}),
          ...(reviewed ? { claimedAt: sql`case when ${mine} then null else ${dicomInstances.claimedAt} end` } : {}),
        })
        .where(and(ownedRow(dicomInstances, id, userId, WORKLIST_MESSAGES.notFound, 'review'), allowed))
        .returning({ id: dicomInstances.id });
      const state = await readStudyState({ db, id, timeoutMinutes });
      if (!done)
        throw new AppError(
          'CONFLICT',
          state.claim ? WORKLIST_MESSAGES.heldBy(state.claim.name) : WORKLIST_MESSAGES.claimFirst,
        );
      return state;
    },
  });
}
