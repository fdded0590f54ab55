import { and, ne } from 'drizzle-orm';
import { reportAddenda, reports } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { REPORT_MESSAGES, ZAddendumInput, type TAddendumInput, type TReport } from '@contracts/schemas/report.js';
import { auditedAccess } from '../audit/audited-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { enqueueReportDeliveries } from './delivery/enqueue-report-deliveries.js';
import { recordReportDeliveries } from './delivery/record-report-deliveries.js';
import { loadReport } from './get-report.js';
import { guardReportWrite, nextRevision } from './guard-report-write.js';
import { readReport } from './read-report.js';
import { signerName } from './signer-name.js';

/**
 * Adds a signed correction to a signed report (issue 41); the report then reads 'amended'. A
 * draft is edited instead: CONFLICT. Added at the revision the reader read (issue 49), so an
 * addendum written against a report another reader amended meanwhile is refused (they reload and
 * see it). No claim is needed: the signature ended the study's reading. The addendum's text
 * stays out of the audit entry.
 */
export async function addAddendum(
  opts: Pick<AppDeps, 'db' | 'config' | 'log' | 'redis'> & {
    meta: RequestMeta | null;
    userId: string;
    input: TAddendumInput;
  },
): Promise<TReport> {
  const { db, userId } = opts;
  const { analysisId, revision, text } = ZAddendumInput.parse(opts.input);
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'report.addendum',
    objectType: 'analysis',
    objectId: isUuid(analysisId) ? analysisId : null,
    work: async () => {
      const { report } = await loadReport({ ...opts, analysisId, access: 'sign' });
      if (report.status === 'draft') throw new AppError('CONFLICT', REPORT_MESSAGES.notSigned);
      const guard = await guardReportWrite({ ...opts, analysisId, revision, needsClaim: false });
      const name = await signerName({ db, userId });
      const deliveries = await db.transaction(async (tx) => {
        const [amended] = await tx
          .update(reports)
          .set({ status: 'amended', ...nextRevision(userId) })
          .where(and(guard.where, ne(reports.status, 'draft')))
          .returning({ analysisId: reports.analysisId });
        // Why not is read after the transaction ends (PGlite runs one statement at a time).
        if (!amended) return null;
        const [added] = await tx
          .insert(reportAddenda)
          .values({ analysisId, text, signedBy: userId, signedByName: name })
          .returning({ id: reportAddenda.id });
        const txDb = tx as unknown as typeof db;
        return recordReportDeliveries({ db: txDb, config: opts.config, analysisId, addendumId: added!.id });
      });
      if (!deliveries) throw await guard.refusal({ whenSigned: REPORT_MESSAGES.notSigned });
      // The amended report goes out as the signed one did: queued behind the answer.
      void enqueueReportDeliveries({ ...opts, deliveries });
      return (await readReport({ db, analysisId, canSign: true }))!;
    },
    detailsOf: (r) => ({ addenda: r.addenda.length }),
  });
}
