import { and, eq } from 'drizzle-orm';
import { reports } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { REPORT_MESSAGES, ZEditReportInput, type TEditReportInput, type TReport } from '@contracts/schemas/report.js';
import { auditedAccess } from '../audit/audited-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { loadReport } from './get-report.js';
import { guardReportWrite, nextRevision } from './guard-report-write.js';
import { readReport } from './read-report.js';

/**
 * Saves the reader's sections of a draft (issue 41) at the revision they read it at (issue 49),
 * by the reader holding a team study's claim (issue 46 M3). A signed report is immutable, a
 * stale revision overwrites nothing: CONFLICT, checked in the UPDATE itself so a signature or
 * another reader's save landing meanwhile cannot be overwritten.
 */
export async function editReport(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; input: TEditReportInput },
): Promise<TReport> {
  const { db, userId } = opts;
  const { analysisId, revision, sections } = ZEditReportInput.parse(opts.input);
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'report.edit',
    objectType: 'analysis',
    objectId: isUuid(analysisId) ? analysisId : null,
    work: async () => {
      const { analysis } = await loadReport({ ...opts, analysisId, access: 'sign' });
      const guard = await guardReportWrite({ ...opts, analysisId, revision, needsClaim: analysis.teamId !== null });
      const [saved] = await db
        .update(reports)
        .set({ ...sections, ...nextRevision(userId) })
        .where(and(guard.where, eq(reports.status, 'draft')))
        .returning({ analysisId: reports.analysisId });
      if (!saved) throw await guard.refusal({ whenSigned: REPORT_MESSAGES.signed });
      return (await readReport({ db, analysisId, canSign: true }))!;
    },
  });
}
