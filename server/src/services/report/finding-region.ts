import type { THeatmapZones } from '@contracts/schemas/analysis.js';

/**
 * Where a radiology report's FINDINGS section puts each finding. The labels come from the
 * stored result (the manifest's), never from here: this only says which region a known label
 * reads under, and any label it does not know reads under the lungs, so a finding a new model
 * adds still appears in the report.
 */
export const REPORT_REGIONS = ['lungs', 'pleura', 'heart'] as const;
export type TReportRegion = (typeof REPORT_REGIONS)[number];

export const REGION_HEADINGS: Record<TReportRegion, string> = {
  lungs: 'Lungs',
  pleura: 'Pleura',
  heart: 'Heart and mediastinum',
};

const REGION_OF_LABEL: Readonly<Record<string, TReportRegion>> = {
  pleural_effusion: 'pleura',
  pleural_thickening: 'pleura',
  pneumothorax: 'pleura',
  cardiomegaly: 'heart',
  hernia: 'heart',
};

export const regionOf = (label: string): TReportRegion => REGION_OF_LABEL[label] ?? 'lungs';

/**
 * Issue 48: a side is named only where the finding's own map backs it, i.e. at least this share of
 * its heat inside the lungs lies in one lung (worker/src/pipeline/heatmap-zones.ts). Below it the
 * draft names no side: a map spread over both lungs says nothing about laterality.
 */
export const SIDE_SHARE = 0.75;

/** Findings whose side a reader names (not the heart, which has none). */
const SIDED = new Set<TReportRegion>(['lungs', 'pleura']);

/** 'Right' or 'Left' (the patient's) when the finding's map backs it, else null. */
export function sideOf(label: string, zones: readonly THeatmapZones[] | undefined): 'Right' | 'Left' | null {
  if (!SIDED.has(regionOf(label))) return null;
  const z = zones?.find((x) => x.label === label)?.zones;
  if (!z) return null;
  const right = z.right_upper + z.right_middle + z.right_lower;
  const left = z.left_upper + z.left_middle + z.left_lower;
  const total = right + left;
  if (!(total > 0)) return null;
  if (right / total >= SIDE_SHARE) return 'Right';
  if (left / total >= SIDE_SHARE) return 'Left';
  return null;
}
