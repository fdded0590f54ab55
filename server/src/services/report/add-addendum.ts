import { eq, sql } from 'drizzle-orm';
import { reportAddenda, reports } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { REPORT_MESSAGES, ZAddendumInput, type TAddendumInput, type TReport } from '@contracts/schemas/report.js';
import { auditedAccess } from '../audit/audited-access.js';
import { isUuid } from '../data-access/is-uuid.js';
import { enqueueReportDeliveries } from './delivery/enqueue-report-deliveries.js';
import { recordReportDeliveries } from './delivery/record-report-deliveries.js';
import { loadReport } from './get-report.js';
import { readReport } from './read-report.js';
import { signerName } from './signer-name.js';

/**
 * Adds a signed correction to a signed report (issue 41); the report then reads 'amended'. A
 * draft is edited instead: CONFLICT. The addendum's text stays out of the audit entry.
 */
export async function addAddendum(
  opts: Pick<AppDeps, 'db' | 'config' | 'log' | 'redis'> & {
    meta: RequestMeta | null;
    userId: string;
    input: TAddendumInput;
  },
): Promise<TReport> {
  const { db, userId } = opts;
  const { analysisId, text } = ZAddendumInput.parse(opts.input);
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
      const name = await signerName({ db, userId });
      const deliveries = await db.transaction(async (tx) => {
        const [added] = await tx
          .insert(reportAddenda)
          .values({ analysisId, text, signedBy: userId, signedByName: name })
          .returning({ id: reportAddenda.id });
        await tx
          .update(reports)
          .set({ status: 'amended', updatedAt: sql`now()` })
          .where(eq(reports.analysisId, analysisId));
        const txDb = tx as unknown as typeof db;
        return recordReportDeliveries({ db: txDb, config: opts.config, analysisId, addendumId: added!.id });
      });
      // The amended report goes out as the signed one did: queued behind the answer.
      void enqueueReportDeliveries({ ...opts, deliveries });
      return (await readReport({ db, analysisId, canSign: true }))!;
    },
    detailsOf: (r) => ({ addenda: r.addenda.length }),
  });
}
