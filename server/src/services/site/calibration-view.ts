import type { siteCalibrations } from '../../db/schema.js';
import { ZFindingCalibration, ZSkippedFinding, type TCalibration } from '@contracts/schemas/site.js';

export type TCalibrationRow = typeof siteCalibrations.$inferSelect;

/** The stored JSONB holds calibrated findings and skipped ones (those carry a `reason`). */
export function calibrationView(row: TCalibrationRow): TCalibration {
  const entries = row.findings;
  return {
    id: row.id,
    status: row.status,
    source: row.source,
    method: row.method,
    modelVersion: row.modelVersion,
    modelSha256: row.modelSha256,
    findings: entries.filter((e) => !('reason' in e)).map((e) => ZFindingCalibration.parse(e)),
    skipped: entries.filter((e) => 'reason' in e).map((e) => ZSkippedFinding.parse(e)),
    createdAt: row.createdAt.toISOString(),
    appliedAt: row.appliedAt?.toISOString() ?? null,
  };
}
