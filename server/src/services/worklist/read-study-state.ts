import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TDb } from '../../db/client.js';
import { dicomInstances, users } from '../../db/schema.js';
import type { TWorklistMark, TWorklistStudyState } from '@contracts/schemas/worklist.js';
import { activeClaimSql } from '../dicom-node/worklist-urgency-sql.js';

const claimer = alias(users, 'claimer');
const reviewer = alias(users, 'reviewer');

/** A claim or review mark; a reader whose account is gone leaves no mark (the column was set null). */
export function markOf(userId: string | null, name: string | null, at: Date | null): TWorklistMark | null {
  return userId && name !== null && at ? { userId, name, at: at.toISOString() } : null;
}

/**
 * Who reads a study now (a claim within the timeout) and who marked it reviewed. The caller has
 * already passed the access rule for this id (require-study-reader.ts).
 */
export async function readStudyState(opts: {
  db: TDb;
  id: string;
  timeoutMinutes: number;
}): Promise<TWorklistStudyState> {
  const { db, id } = opts;
  const [row] = await db
    .select({
      claimerId: claimer.id,
      claimerName: claimer.name,
      claimedAt: dicomInstances.claimedAt,
      reviewerId: reviewer.id,
      reviewerName: reviewer.name,
      reviewedAt: dicomInstances.reviewedAt,
    })
    .from(dicomInstances)
    .leftJoin(claimer, and(eq(claimer.id, dicomInstances.claimedBy), activeClaimSql(opts.timeoutMinutes)))
    .leftJoin(reviewer, eq(reviewer.id, dicomInstances.reviewedBy))
    .where(eq(dicomInstances.id, id))
    .limit(1);
  return {
    id,
    claim: row ? markOf(row.claimerId, row.claimerName, row.claimedAt) : null,
    review: row ? markOf(row.reviewerId, row.reviewerName, row.reviewedAt) : null,
  };
}
