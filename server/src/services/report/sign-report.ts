import { and, eq, sql } from 'drizzle-orm';
import { reports } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { REPORT_MESSAGES, type TReport } from '@contracts/schemas/report.js';
import { auditedAccess } from '../audit/audited-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { saveImpressionFeedback } from '../feedback/save-impression-feedback.js';
import { enqueueReportDeliveries } from './delivery/enqueue-report-deliveries.js';
import { recordReportDeliveries } from './delivery/record-report-deliveries.js';
import { loadReport } from './get-report.js';
import { impressionChanges } from './impression-changes.js';
import { readReport } from './read-report.js';
import { signerName } from './signer-name.js';

/**
 * Signs a draft (issue 41): status final, the signer and the time, recorded in the audit chain.
 * From then on the report is immutable. What the signer removed from or added to the AI's
 * impression is stored as their feedback on each finding, in the same transaction. Signing a
 * signed report is CONFLICT. The deliveries to the RIS and the PACS are recorded in the same
 * transaction and queued behind the answer.
 */
export async function signReport(
  opts: Pick<AppDeps, 'db' | 'config' | 'log' | 'redis'> & {
    meta: RequestMeta | null;
    userId: string;
    analysisId: string;
  },
): Promise<TReport> {
  const { db, userId, analysisId } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'report.sign',
    objectType: 'analysis',
    objectId: isUuid(analysisId) ? analysisId : null,
    work: async () => {
      const { analysis } = await loadReport({ ...opts, access: 'sign' });
      const name = await signerName({ db, userId });
      const deliveries = await db.transaction(async (tx) => {
        const [signed] = await tx
          .update(reports)
          .set({ status: 'final', signedBy: userId, signedByName: name, signedAt: sql`now()`, updatedAt: sql`now()` })
          .where(and(eq(reports.analysisId, analysisId), eq(reports.status, 'draft')))
          .returning({ impression: reports.impression });
        if (!signed) throw new AppError('CONFLICT', REPORT_MESSAGES.signed);
        const txDb = tx as unknown as typeof db;
        const result = ZStoredResult.safeParse(analysis.result);
        if (result.success)
          await saveImpressionFeedback({
            db: txDb,
            userId,
            analysis: { ...analysis, modelVersion: result.data.modelVersion },
            changes: impressionChanges(result.data.findings, signed.impression),
          });
        return recordReportDeliveries({ db: txDb, config: opts.config, analysisId, addendumId: null });
      });
      // Behind the answer: a RIS or PACS that is away must not hold the signature (the queue retries).
      void enqueueReportDeliveries({ ...opts, deliveries });
      return (await readReport({ db, analysisId, canSign: true }))!;
    },
    detailsOf: (r) => ({ status: r.status }),
  });
}
