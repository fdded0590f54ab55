import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { TDb } from '../../../db/client.js';
import { reportDeliveries } from '../../../db/schema.js';
import type { TConfig } from '@contracts/config/server-config.js';
import { findForwardableStudy } from './find-forwardable-study.js';

/** A UID under 2.25 from a random UUID (PS3.5 B.2), as newUid does, without dcmjs on the router's import path. */
const newUid = (): string => `2.25.${BigInt(`0x${randomUUID().replace(/-/g, '')}`).toString(10)}`;

export interface TRecordedDelivery {
  id: string;
  destination: 'hl7' | 'dicom';
}

/**
 * The deliveries a signature (addendumId null) or an addendum owes, written in its transaction
 * so none is lost between the signature and the queue, and only for a study whose results may
 * leave the building (findForwardableStudy, resultsForwardable's rule: the AI's own objects
 * follow it too; issue 46 H1): HL7 when REPORT_HL7_DESTINATION is set, the SR when
 * DICOM_DESTINATION is set and there is a film. The SR's UIDs are fixed here: the report's
 * series is the one its first SR opened.
 */
export async function recordReportDeliveries(opts: {
  db: TDb;
  config: Pick<TConfig, 'REPORT_HL7_DESTINATION' | 'DICOM_DESTINATION'>;
  analysisId: string;
  addendumId: string | null;
}): Promise<TRecordedDelivery[]> {
  const { db, config, analysisId, addendumId } = opts;
  const rows: (typeof reportDeliveries.$inferInsert)[] = [];
  if (!config.REPORT_HL7_DESTINATION && !config.DICOM_DESTINATION) return [];
  const forwardable = await findForwardableStudy({ db, analysisId });
  if (!forwardable) return [];
  if (config.REPORT_HL7_DESTINATION) rows.push({ analysisId, addendumId, destination: 'hl7' });
  if (config.DICOM_DESTINATION) {
    if (forwardable.film) {
      const [earlier] = await db
        .select({ series: reportDeliveries.seriesInstanceUid })
        .from(reportDeliveries)
        .where(and(eq(reportDeliveries.analysisId, analysisId), isNotNull(reportDeliveries.seriesInstanceUid)))
        .orderBy(desc(reportDeliveries.createdAt))
        .limit(1);
      rows.push({
        analysisId,
        addendumId,
        destination: 'dicom',
        seriesInstanceUid: earlier?.series ?? newUid(),
        sopInstanceUid: newUid(),
      });
    }
  }
  if (!rows.length) return [];
  return db
    .insert(reportDeliveries)
    .values(rows)
    .returning({ id: reportDeliveries.id, destination: reportDeliveries.destination });
}
