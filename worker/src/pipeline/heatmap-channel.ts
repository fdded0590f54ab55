import type { ModelManifest, ResolvedFinding } from './types.js';

/**
 * The CAM channel a finding's heatmap is read from: the one its manifest entry names
 * (`findings[].heatmap`), else the channel of the CAM output that carries the finding's own label
 * (model 4 named none for cardiomegaly although its CAM output has that channel), else none.
 * Every flagged finding with a channel gets a heatmap (issue 42).
 */
export function heatmapChannel(f: ResolvedFinding, manifest: ModelManifest): number {
  const channels = manifest.cams?.channels ?? [];
  return channels.indexOf(f.heatmap ?? f.label);
}
