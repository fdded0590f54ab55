import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { REPORT_MESSAGES, type TReport } from '@contracts/schemas/report.js';
import { auditedAccess } from '../audit/audited-access.js';
import {
  maySignReport,
  requireReportAccess,
  type TReportAccess,
  type TReportAnalysis,
} from '../data-access/report-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { ensureReportDraft } from './ensure-report-draft.js';
import { readReport } from './read-report.js';

/**
 * The caller's access checked, the report read (drafted first when the analysis finished
 * before reports existed). NOT_FOUND for an analysis without an accepted result.
 */
export async function loadReport(
  opts: Pick<AppDeps, 'db' | 'config'> & { userId: string; analysisId: string; access: TReportAccess },
): Promise<{ analysis: TReportAnalysis; report: TReport }> {
  const { db, analysisId } = opts;
  const analysis = await requireReportAccess(opts);
  const canSign = opts.access === 'sign' || (await maySignReport({ db, userId: opts.userId, teamId: analysis.teamId }));
  const stored = await readReport({ db, analysisId, canSign });
  if (stored) return { analysis, report: stored };
  if (!(await ensureReportDraft(opts))) throw new AppError('NOT_FOUND', REPORT_MESSAGES.notFound);
  const drafted = await readReport({ db, analysisId, canSign });
  if (!drafted) throw new AppError('NOT_FOUND', REPORT_MESSAGES.notFound);
  return { analysis, report: drafted };
}

/** An analysis's report, for any reader of the analysis (issue 41); audited as a read. */
export async function getReport(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; analysisId: string },
): Promise<TReport> {
  return auditedAccess({
    db: opts.db,
    meta: opts.meta,
    userId: opts.userId,
    action: 'report.read',
    objectType: 'analysis',
    objectId: isUuid(opts.analysisId) ? opts.analysisId : null,
    work: async () => (await loadReport({ ...opts, access: 'read' })).report,
  });
}
