import { and, eq, sql } from 'drizzle-orm';
import { reports } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { REPORT_MESSAGES, ZSignReportInput, type TReport, type TSignReportInput } from '@contracts/schemas/report.js';
import { hasVisibleText } from '@contracts/schemas/text-rules.js';
import { auditedAccess } from '../audit/audited-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { saveImpressionFeedback } from '../feedback/save-impression-feedback.js';
import { enqueueReportDeliveries } from './delivery/enqueue-report-deliveries.js';
import { recordReportDeliveries } from './delivery/record-report-deliveries.js';
import { loadReport } from './get-report.js';
import { endStudyClaim, guardReportWrite, nextRevision } from './guard-report-write.js';
import { impressionChanges } from './impression-changes.js';
import { readReport } from './read-report.js';
import { signerName } from './signer-name.js';

/**
 * Signs a draft (issue 41): status final, the signer and the time, recorded in the audit chain.
 * From then on the report is immutable. Signed at the revision the signer read (issue 49), by
 * the reader holding a team study's claim (issue 46 M3), with an impression a reader can see
 * (issue 46 I1); the signature ends the claim. What the signer removed from or added to the AI's
 * impression is stored as their feedback on each finding, in the same transaction. Signing a
 * signed report is CONFLICT. The deliveries to the RIS and the PACS are recorded in the same
 * transaction and queued behind the answer.
 */
export async function signReport(
  opts: Pick<AppDeps, 'db' | 'config' | 'log' | 'redis'> & {
    meta: RequestMeta | null;
    userId: string;
    input: TSignReportInput;
  },
): Promise<TReport> {
  const { db, userId } = opts;
  const { analysisId, revision } = ZSignReportInput.parse(opts.input);
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'report.sign',
    objectType: 'analysis',
    objectId: isUuid(analysisId) ? analysisId : null,
    work: async () => {
      const { analysis, report } = await loadReport({ ...opts, analysisId, access: 'sign' });
      const guard = await guardReportWrite({ ...opts, analysisId, revision, needsClaim: analysis.teamId !== null });
      // The impression read here is the one signed: the UPDATE below holds the same revision.
      if (report.revision === revision && report.status === 'draft' && !hasVisibleText(report.sections.impression))
        throw new AppError('BAD_REQUEST', REPORT_MESSAGES.impressionRequired);
      const name = await signerName({ db, userId });
      const deliveries = await db.transaction(async (tx) => {
        const txDb = tx as unknown as typeof db;
        const [signed] = await tx
          .update(reports)
          .set({ status: 'final', signedBy: userId, signedByName: name, signedAt: sql`now()`, ...nextRevision(userId) })
          .where(and(guard.where, eq(reports.status, 'draft')))
          .returning({ impression: reports.impression });
        // Why not is read after the transaction ends (PGlite runs one statement at a time).
        if (!signed) return null;
        await endStudyClaim({ db: txDb, study: guard.study });
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
      if (!deliveries) throw await guard.refusal({ whenSigned: REPORT_MESSAGES.signed });
      // Behind the answer: a RIS or PACS that is away must not hold the signature (the queue retries).
      void enqueueReportDeliveries({ ...opts, deliveries });
      return (await readReport({ db, analysisId, canSign: true }))!;
    },
    detailsOf: (r) => ({ status: r.status }),
  });
}
