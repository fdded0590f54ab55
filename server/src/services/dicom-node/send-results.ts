import { and, eq, inArray } from 'drizzle-orm';
import { analyses, dicomInstances, storedImages } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { ZStoredResult, type TStoredResult } from '@contracts/schemas/analysis.js';
import { buildNotAnalysedObjects, buildResultObjects, type TResultObjects } from './build-result-objects.js';
import { resultsForwardable } from './results-forwardable.js';
import { storeToPeer } from './store-to-peer.js';

type TSendRow = {
  instance: typeof dicomInstances.$inferSelect;
  status: string;
  result: TStoredResult;
  imageId: string | null;
  heatmapId: string | null;
};

/**
 * The send job's work for one network instance whose analysis ended: for an analysed film the
 * secondary capture and the AIR SR, for a film the image check refused the "not analysed" SR.
 * Throws on failure so the queue retries; returns false when there is nothing to send (the
 * instance or analysis is gone). A refused film keeps its skipped status and reason: only
 * `sentAt` records that the PACS was told.
 * Nothing is sent when resultsForwardable no longer lets the account's results go.
 */
export async function sendResults(
  opts: Pick<AppDeps, 'db' | 'images' | 'config'> & { instanceId: string },
): Promise<boolean> {
  const { db, config, instanceId } = opts;
  const peer = config.DICOM_DESTINATION;
  if (!peer) return false;
  const [row] = await db
    .select({
      instance: dicomInstances,
      status: analyses.status,
      result: analyses.result,
      imageId: analyses.imageId,
      heatmapId: analyses.heatmapImageId,
    })
    .from(dicomInstances)
    .innerJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
    .where(
      and(
        eq(dicomInstances.id, instanceId),
        inArray(analyses.status, ['completed', 'refused']),
        resultsForwardable(db),
      ),
    )
    .limit(1);
  const result = ZStoredResult.safeParse(row?.result);
  if (!row || !result.success) return false;
  const built = await buildObjects(opts, { ...row, result: result.data });
  if (!built) return false;
  await db
    .update(dicomInstances)
    .set({ sendAttempts: row.instance.sendAttempts + 1, updatedAt: new Date() })
    .where(eq(dicomInstances.id, instanceId));
  await storeToPeer({ peer, callingAe: config.DICOM_AE_TITLE, datasets: built.datasets });
  const refused = row.status === 'refused';
  await db
    .update(dicomInstances)
    .set(
      refused
        ? { sentAt: new Date(), updatedAt: new Date() }
        : { status: 'sent', reason: null, sentAt: new Date(), updatedAt: new Date() },
    )
    .where(eq(dicomInstances.id, instanceId));
  return true;
}

async function buildObjects(opts: Pick<AppDeps, 'db' | 'images'>, row: TSendRow): Promise<TResultObjects | null> {
  const source = row.instance;
  if (row.status === 'refused')
    return buildNotAnalysedObjects({
      source,
      result: row.result,
      reason: row.result.gate.reason ?? 'the image was not accepted as a chest radiograph',
    });
  const [image] = await opts.db
    .select({ storageKey: storedImages.storageKey })
    .from(storedImages)
    .where(eq(storedImages.id, (row.heatmapId ?? row.imageId)!))
    .limit(1);
  if (!image) return null;
  return buildResultObjects({
    source,
    image: await opts.images.get(image.storageKey),
    result: row.result,
    // The stored overlay is the top finding's heatmap (worker/src/jobs/process-analysis.ts).
    heatmapLabel: row.heatmapId ? (row.result.heatmaps[0]?.label ?? row.result.topFinding) : null,
  });
}
