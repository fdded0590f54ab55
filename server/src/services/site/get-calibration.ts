import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
import type { TDb } from '../../db/client.js';
import { siteCalibrations } from '../../db/schema.js';
import { SITE_MESSAGES, type TCalibrationState } from '@contracts/schemas/site.js';
import { calibrationView, type TCalibrationRow } from './calibration-view.js';
import { readLiveModel } from '../models/read-model-facts.js';

export async function appliedCalibrationRow(opts: { db: TDb }): Promise<TCalibrationRow | null> {
  const { db } = opts;
  const [row] = await db.select().from(siteCalibrations).where(eq(siteCalibrations.status, 'applied')).limit(1);
  return row ?? null;
}

/** The applied calibration and whether it is in force for the live model (the sha256 pin: issue 47, a calibration belongs to one model). */
export async function getCalibration(deps: Pick<AppDeps, 'db' | 'config'>): Promise<TCalibrationState> {
  const { identity: model } = await readLiveModel(deps);
  const row = await appliedCalibrationRow({ db: deps.db });
  const active = !!row && !!model && row.modelSha256 === model.sha256;
  return {
    model: model ? { version: model.modelVersion, sha256: model.sha256 } : null,
    applied: row ? calibrationView(row) : null,
    active,
    warning:
      row && !active
        ? `The applied site thresholds were made for model ${row.modelVersion} (sha256 ${row.modelSha256.slice(0, 12)}…), ` +
          `not applied to the running model ${model ? `${model.modelVersion} (sha256 ${model.sha256.slice(0, 12)}…)` : '(none found)'}: ` +
          `new analyses use the model defaults. ${SITE_MESSAGES.modelChanged}.`
        : null,
    minCases: deps.config.SITE_CALIBRATION_MIN_CASES,
  };
}
