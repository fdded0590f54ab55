import { and, desc, eq, lt, isNotNull } from 'drizzle-orm';
import type { AppDeps } from '../../../deps.js';
import { analyses, dicomInstances, reportDeliveries, teams } from '../../../db/schema.js';
import { resultsForwardable } from '../../dicom-node/results-forwardable.js';
import { StoreFailedError, storeToPeer } from '../../dicom-node/store-to-peer.js';
import { DeliveryFailedError } from '../delivery/delivery-failed-error.js';
import type { TDeliveredReport } from '../delivery/load-delivery.js';
import { buildReportTextSr } from './build-report-text-sr.js';

/**
 * One attempt to C-STORE the signed report's Basic Text SR to DICOM_DESTINATION, in the film's
 * study beside the AI's objects, with the same sender (storeToPeer). An addendum's SR names the
 * report's previous SR as its predecessor. Throws DeliveryFailedError on any failure (the queue
 * retries); the PACS's reason is its DIMSE status or the network error's code.
 */
export async function sendReportSr(
  opts: Pick<AppDeps, 'db' | 'config'> & { delivered: TDeliveredReport },
): Promise<void> {
  const { db, config, delivered } = opts;
  const { delivery } = delivered;
  const peer = config.DICOM_DESTINATION;
  if (!peer) throw new DeliveryFailedError('DICOM_DESTINATION not set');
  if (!delivery.sopInstanceUid || !delivery.seriesInstanceUid) throw new DeliveryFailedError('no SR UIDs');
  const [film] = await db
    .select({ instance: dicomInstances, team: teams.name })
    .from(dicomInstances)
    .innerJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
    .leftJoin(teams, eq(teams.id, analyses.teamId))
    .where(and(eq(dicomInstances.analysisId, delivery.analysisId), resultsForwardable(db)))
    .limit(1);
  // The listing that let results go was revoked since signing: nothing goes.
  if (!film) throw new DeliveryFailedError('results no longer go to the PACS');
  const [predecessor] = await db
    .select({ seriesInstanceUid: reportDeliveries.seriesInstanceUid, sopInstanceUid: reportDeliveries.sopInstanceUid })
    .from(reportDeliveries)
    .where(
      and(
        eq(reportDeliveries.analysisId, delivery.analysisId),
        eq(reportDeliveries.destination, 'dicom'),
        isNotNull(reportDeliveries.sopInstanceUid),
        lt(reportDeliveries.createdAt, delivery.createdAt),
      ),
    )
    .orderBy(desc(reportDeliveries.createdAt))
    .limit(1);
  const sr = buildReportTextSr({
    source: film.instance,
    sections: delivered.report.sections,
    signed: { name: delivered.report.signedBy ?? 'Unknown reader', at: delivered.signedAt },
    addenda: delivered.addenda.map((a) => ({ name: a.signedBy, at: a.signedAt, text: a.text })),
    seriesInstanceUid: delivery.seriesInstanceUid,
    sopInstanceUid: delivery.sopInstanceUid,
    predecessor:
      predecessor?.seriesInstanceUid && predecessor.sopInstanceUid
        ? { seriesInstanceUid: predecessor.seriesInstanceUid, sopInstanceUid: predecessor.sopInstanceUid }
        : null,
    organization: film.team,
    now: new Date(),
  });
  await storeToPeer({ peer, callingAe: config.DICOM_AE_TITLE, datasets: [sr] }).catch((err: unknown) => {
    throw new DeliveryFailedError(err instanceof StoreFailedError ? err.code : 'C-STORE failed');
  });
}
