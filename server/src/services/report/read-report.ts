import { asc, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { reportAddenda, reportDeliveries, reports } from '../../db/schema.js';
import type { TReport } from '@contracts/schemas/report.js';

/** The stored report of an analysis as the API shows it, or null when none is drafted yet. */
export async function readReport(opts: { db: TDb; analysisId: string; canSign: boolean }): Promise<TReport | null> {
  const { db, analysisId, canSign } = opts;
  const [row] = await db.select().from(reports).where(eq(reports.analysisId, analysisId)).limit(1);
  if (!row) return null;
  const addenda = await db
    .select({ text: reportAddenda.text, signedBy: reportAddenda.signedByName, signedAt: reportAddenda.signedAt })
    .from(reportAddenda)
    .where(eq(reportAddenda.analysisId, analysisId))
    .orderBy(asc(reportAddenda.signedAt), asc(reportAddenda.id));
  const deliveries = await db
    .select({
      destination: reportDeliveries.destination,
      addendumId: reportDeliveries.addendumId,
      status: reportDeliveries.status,
      attempts: reportDeliveries.attempts,
      lastError: reportDeliveries.lastError,
    })
    .from(reportDeliveries)
    .where(eq(reportDeliveries.analysisId, analysisId))
    .orderBy(asc(reportDeliveries.createdAt), asc(reportDeliveries.destination));
  return {
    analysisId: row.analysisId,
    status: row.status,
    sections: {
      examination: row.examination,
      comparison: row.comparison,
      findings: row.findings,
      impression: row.impression,
    },
    draftedBy: row.draftedBy,
    signedBy: row.signedByName,
    signedAt: row.signedAt?.toISOString() ?? null,
    addenda: addenda.map((a) => ({ ...a, signedAt: a.signedAt.toISOString() })),
    canSign,
    deliveries: deliveries.map(({ addendumId, ...d }) => ({
      ...d,
      carries: addendumId ? ('addendum' as const) : ('signature' as const),
    })),
    revision: row.revision,
  };
}
