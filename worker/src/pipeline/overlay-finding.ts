import { isCalled } from '@contracts/finding-call.js';
import type { AnalysisResult, Heatmap, LoadedModel } from './types.js';

/**
 * The finding whose heatmap is drawn as the stored overlay (the exports' and the PACS copy's
 * picture): the top finding when it has a map, else the most probable other flagged finding that
 * has one and is not a summary score; null when none has. Before issue 42 only the top finding
 * was drawn, so a top finding without a CAM channel (cardiomegaly) left the film with no overlay.
 * Findings of an age group come last, as in the top finding's choice: the server withholds them
 * for adults.
 */
export function overlayHeatmap(result: AnalysisResult, model: LoadedModel): Heatmap | null {
  const maps = new Map(result.heatmaps.map((h) => [h.label, h]));
  const top = result.topFinding ? maps.get(result.topFinding) : undefined;
  if (top) return top;
  const summary = new Set(model.findings.filter((f) => f.summary).map((f) => f.label));
  const candidates = result.findings
    .filter((f) => isCalled(f.call) && !summary.has(f.label) && maps.has(f.label))
    .sort(
      (a, b) =>
        Number(a.ageGroup === 'pediatric') - Number(b.ageGroup === 'pediatric') || b.probability - a.probability,
    );
  return candidates[0] ? maps.get(candidates[0].label)! : null;
}
