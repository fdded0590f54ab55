import { and, eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses, teamMembers } from '../../db/schema.js';
import { REPORT_MESSAGES } from '@contracts/schemas/report.js';
import { findOwned, READER_ROLES } from './find-owned.js';
import { requireTeamRole } from './team-role.js';

/** 'read': see the report; 'sign': edit the draft, sign it, add an addendum. */
export type TReportAccess = 'read' | 'sign';

export interface TReportAnalysis {
  id: string;
  teamId: string | null;
  chatId: string;
  status: string;
  result: Record<string, unknown> | null;
  createdAt: Date;
}

/**
 * Who may touch an analysis's report, in one place (issue 41): it follows the analysis. Any
 * member of its team reads it; only a radiologist or an admin of the team edits and signs it
 * (a clinician is FORBIDDEN: they know it exists); a personal study's report is its owner's
 * alone. An analysis the caller cannot read is NOT_FOUND, like a missing id.
 */
export async function requireReportAccess(opts: {
  db: TDb;
  userId: string;
  analysisId: string;
  access: TReportAccess;
}): Promise<TReportAnalysis> {
  const { db, userId, analysisId, access } = opts;
  const analysis = await findOwned({
    db,
    table: analyses,
    id: analysisId,
    userId,
    columns: {
      id: analyses.id,
      teamId: analyses.teamId,
      chatId: analyses.chatId,
      status: analyses.status,
      result: analyses.result,
      createdAt: analyses.createdAt,
    },
    notFound: REPORT_MESSAGES.notFound,
  });
  if (access === 'sign' && analysis.teamId)
    await requireTeamRole({
      db,
      userId,
      teamId: analysis.teamId,
      roles: READER_ROLES,
      forbidden: REPORT_MESSAGES.readersOnly,
    });
  return analysis;
}

/**
 * Whether userId may sign a report of a space they read (the same rule, answered rather than
 * thrown): the owner of a personal study, a radiologist or an admin of the team.
 */
export async function maySignReport(opts: { db: TDb; userId: string; teamId: string | null }): Promise<boolean> {
  const { db, userId, teamId } = opts;
  if (!teamId) return true;
  const [row] = await db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId), inArray(teamMembers.role, READER_ROLES)))
    .limit(1);
  return Boolean(row);
}
