import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TDb } from '../../db/client.js';
import { studyClaims, users } from '../../db/schema.js';
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
 * already passed the access rule for this study (require-study-reader.ts); `teamId` is its team
 * (null: a personal study, which nobody claims).
 */
export async function readStudyState(opts: {
  db: TDb;
  studyId: string;
  teamId: string | null;
  timeoutMinutes: number;
}): Promise<TWorklistStudyState> {
  const { db, studyId, teamId } = opts;
  const [row] = await db
    .select({
      claimerId: claimer.id,
      claimerName: claimer.name,
      claimedAt: studyClaims.claimedAt,
      reviewerId: reviewer.id,
      reviewerName: reviewer.name,
      reviewedAt: studyClaims.reviewedAt,
    })
    .from(studyClaims)
    .leftJoin(
      claimer,
      teamId ? and(eq(claimer.id, studyClaims.claimedBy), activeClaimSql(opts.timeoutMinutes, teamId)) : sql`false`,
    )
    .leftJoin(reviewer, eq(reviewer.id, studyClaims.reviewedBy))
    .where(eq(studyClaims.studyId, studyId))
    .limit(1);
  return {
    id: studyId,
    claim: row ? markOf(row.claimerId, row.claimerName, row.claimedAt) : null,
    review: row ? markOf(row.reviewerId, row.reviewerName, row.reviewedAt) : null,
  };
}
