import { and, eq, ne } from 'drizzle-orm';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { siteCalibrations } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { SITE_MESSAGES, type TCalibration } from '@contracts/schemas/site.js';
import { isUuid } from '../data-access/is-uuid.js';
import { recordAudit } from '../audit/record-audit.js';
import { calibrationView } from './calibration-view.js';
import { readLiveModel } from '../models/read-model-facts.js';

/**
 * Makes a proposal the site's applied calibration (the previous one is superseded), in one
 * transaction with its audit entry. A proposal made for another model is refused.
 */
export async function applyCalibration(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; calibrationId: string },
): Promise<TCalibration> {
  const { meta, userId, calibrationId } = opts;
  const deps = opts;
  if (!isUuid(calibrationId)) throw new AppError('NOT_FOUND', SITE_MESSAGES.noProposal);
  // A proposal applies only to the model live now (issue 47), the one new analyses use.
  const { identity: model } = await readLiveModel(deps);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(siteCalibrations).where(eq(siteCalibrations.id, calibrationId)).limit(1);
    if (!row) throw new AppError('NOT_FOUND', SITE_MESSAGES.noProposal);
    if (!model || row.modelSha256 !== model.sha256) throw new AppError('CONFLICT', SITE_MESSAGES.modelChanged);
    await tx
      .update(siteCalibrations)
      .set({ status: 'superseded' })
      .where(and(eq(siteCalibrations.status, 'applied'), ne(siteCalibrations.id, row.id)));
    const [applied] = await tx
      .update(siteCalibrations)
      .set({ status: 'applied', appliedAt: new Date(), revertedAt: null })
      .where(eq(siteCalibrations.id, row.id))
      .returning();
    await recordAudit({
      db: tx as unknown as typeof deps.db,
      meta,
      entry: {
        actorUserId: userId,
        action: 'site.calibration.apply',
        objectType: 'site_calibration',
        objectId: row.id,
        outcome: 'success',
        details: { modelVersion: row.modelVersion },
      },
    });
    return calibrationView(applied!);
  });
}

/** Back to the model's default thresholds for new analyses. */
export async function revertCalibration(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string },
): Promise<void> {
  const { meta, userId } = opts;
  const deps = opts;
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(siteCalibrations)
      .set({ status: 'reverted', revertedAt: new Date() })
      .where(eq(siteCalibrations.status, 'applied'))
      .returning({ id: siteCalibrations.id });
    if (!row) throw new AppError('NOT_FOUND', SITE_MESSAGES.nothingApplied);
    await recordAudit({
      db: tx as unknown as typeof deps.db,
      meta,
      entry: {
        actorUserId: userId,
        action: 'site.calibration.revert',
        objectType: 'site_calibration',
        objectId: row.id,
        outcome: 'success',
      },
    });
  });
}
