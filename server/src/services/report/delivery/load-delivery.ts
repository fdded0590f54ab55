import { and, asc, eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client.js';
import { reportAddenda, reportDeliveries, reports } from '../../../db/schema.js';
import type { TReport } from '@contracts/schemas/report.js';

export type TDeliveryRow = typeof reportDeliveries.$inferSelect;

/** What one delivery carries: the signed report as it stood when it was owed (addenda up to its own). */
export interface TDeliveredReport {
  delivery: TDeliveryRow;
  /** The report at that point: 'final' for the signature, 'amended' with the addenda so far for an addendum. */
  report: TReport;
  signedAt: Date;
  addenda: { text: string; signedBy: string; signedAt: Date }[];
}

/**
 * A pending delivery and the report it carries, or null when there is nothing (left) to send:
 * delivered, failed for good, or the report gone. A retry after a later addendum still sends
 * the report as it stood for this delivery, so each message or SR keeps its own meaning.
 */
export async function loadDelivery(opts: { db: TDb; deliveryId: string }): Promise<TDeliveredReport | null> {
  const { db, deliveryId } = opts;
  const [row] = await db
    .select({ delivery: reportDeliveries, report: reports })
    .from(reportDeliveries)
    .innerJoin(reports, eq(reports.analysisId, reportDeliveries.analysisId))
    .where(and(eq(reportDeliveries.id, deliveryId), eq(reportDeliveries.status, 'pending')))
    .limit(1);
  const signedAt = row?.report.signedAt;
  if (!row || !signedAt) return null;
  const { delivery, report } = row;
  const all = await db
    .select({
      id: reportAddenda.id,
      text: reportAddenda.text,
      signedBy: reportAddenda.signedByName,
      signedAt: reportAddenda.signedAt,
    })
    .from(reportAddenda)
    .where(eq(reportAddenda.analysisId, delivery.analysisId))
    .orderBy(asc(reportAddenda.signedAt), asc(reportAddenda.id));
  const upTo = delivery.addendumId ? all.findIndex((a) => a.id === delivery.addendumId) + 1 : 0;
  if (delivery.addendumId && upTo === 0) return null;
  const addenda = all.slice(0, upTo).map(({ text, signedBy, signedAt }) => ({ text, signedBy, signedAt }));
  return {
    delivery,
    signedAt,
    addenda,
    report: {
      analysisId: report.analysisId,
      status: addenda.length ? 'amended' : 'final',
      sections: {
        examination: report.examination,
        comparison: report.comparison,
        findings: report.findings,
        impression: report.impression,
      },
      draftedBy: report.draftedBy,
      signedBy: report.signedByName,
      revision: report.revision,
      signedAt: signedAt.toISOString(),
      addenda: addenda.map((a) => ({ ...a, signedAt: a.signedAt.toISOString() })),
      canSign: false,
      deliveries: [],
    },
  };
}
