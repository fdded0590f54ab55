import { isCalled } from '@contracts/finding-call.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';

/**
 * The heatmaps a stored result keeps: one per finding flagged ('positive' or 'possible') as the
 * result finally stands (site thresholds applied, pediatric findings withheld), the drawn
 * overlay's finding first and the others most probable first. The worker sends every finding's
 * grid because only here are the final calls known. `overlayLabel` comes back null when the
 * overlay's finding is not among them, so its picture is not attached. Pure.
 */
export function keepFlaggedHeatmaps(
  result: TStoredResult,
  overlayLabel: string | null,
): { result: TStoredResult; overlayLabel: string | null } {
  const flagged = result.findings.filter((f) => isCalled(f.call));
  const rank = new Map(flagged.map((f) => [f.label, f.probability]));
  const kept = result.heatmaps.filter((h) => rank.has(h.label));
  const overlay = overlayLabel !== null && rank.has(overlayLabel) ? overlayLabel : null;
  const order = (label: string) => (label === overlay ? 2 : 0) + (rank.get(label) ?? 0);
  const heatmaps = kept.sort((a, b) => order(b.label) - order(a.label));
  return { result: { ...result, heatmaps }, overlayLabel: overlay };
}
