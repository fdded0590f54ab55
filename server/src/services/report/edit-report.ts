import { and, eq, sql } from 'drizzle-orm';
import { reports } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { REPORT_MESSAGES, ZEditReportInput, type TEditReportInput, type TReport } from '@contracts/schemas/report.js';
import { auditedAccess } from '../audit/audited-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { loadReport } from './get-report.js';
import { readReport } from './read-report.js';

/**
 * Saves the reader's sections of a draft (issue 41). A signed report is immutable: CONFLICT,
 * checked in the UPDATE itself so a signature landing meanwhile cannot be overwritten.
 */
export async function editReport(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; input: TEditReportInput },
): Promise<TReport> {
  const { db, userId } = opts;
  const { analysisId, sections } = ZEditReportInput.parse(opts.input);
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'report.edit',
    objectType: 'analysis',
    objectId: isUuid(analysisId) ? analysisId : null,
    work: async () => {
      await loadReport({ ...opts, analysisId, access: 'sign' });
      const [saved] = await db
        .update(reports)
        .set({ ...sections, updatedAt: sql`now()` })
        .where(and(eq(reports.analysisId, analysisId), eq(reports.status, 'draft')))
        .returning({ analysisId: reports.analysisId });
      if (!saved) throw new AppError('CONFLICT', REPORT_MESSAGES.signed);
      return (await readReport({ db, analysisId, canSign: true }))!;
    },
  });
}
