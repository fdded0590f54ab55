import { and, eq } from 'drizzle-orm';
import { analyses, dicomInstances, storedImages } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { buildResultObjects } from './build-result-objects.js';
import { resultsForwardable } from './results-forwardable.js';
import { storeToPeer } from './store-to-peer.js';

/**
 * The send job's work for one analysed instance: builds the secondary capture and the SR from
 * the stored analysis and sends both to DICOM_DESTINATION. Throws on failure so the queue
 * retries; returns false when there is nothing to send (the instance or analysis is gone, or
 * resultsForwardable no longer lets its results go).
 */
export async function sendResults(
  opts: Pick<AppDeps, 'db' | 'images' | 'config'> & { instanceId: string },
): Promise<boolean> {
  const { db, images, config, instanceId } = opts;
  const peer = config.DICOM_DESTINATION;
  if (!peer) return false;
  const [row] = await db
    .select({
      instance: dicomInstances,
      result: analyses.result,
      imageId: analyses.imageId,
      heatmapId: analyses.heatmapImageId,
    })
    .from(dicomInstances)
    .innerJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
    .where(and(eq(dicomInstances.id, instanceId), eq(analyses.status, 'completed'), resultsForwardable(db)))
    .limit(1);
  if (!row?.result) return false;
  const [image] = await db
    .select({ storageKey: storedImages.storageKey })
    .from(storedImages)
    .where(eq(storedImages.id, (row.heatmapId ?? row.imageId)!))
    .limit(1);
  if (!image) return false;
  const built = await buildResultObjects({
    source: row.instance,
    image: await images.get(image.storageKey),
    result: ZStoredResult.parse(row.result),
  });
  await db
    .update(dicomInstances)
    .set({ sendAttempts: row.instance.sendAttempts + 1, updatedAt: new Date() })
    .where(eq(dicomInstances.id, instanceId));
  await storeToPeer({ peer, callingAe: config.DICOM_AE_TITLE, datasets: [built.secondaryCapture, built.report] });
  await db
    .update(dicomInstances)
    .set({ status: 'sent', reason: null, sentAt: new Date(), updatedAt: new Date() })
    .where(eq(dicomInstances.id, instanceId));
  return true;
}
