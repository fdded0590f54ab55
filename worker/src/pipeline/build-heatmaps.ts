import type { PixelBox } from './anatomy.js';
import type { FoundAnatomy } from './find-anatomy.js';
import { heatmapChannel } from './heatmap-channel.js';
import { heatmapZones } from './heatmap-zones.js';
import type { OutputTensor } from './infer.js';
import { lungHeatmaps } from './lung-heatmaps.js';
import type { GrayFilm, Heatmap, HeatmapZones, LoadedModel } from './types.js';

/**
 * The heatmaps stage: the CAM channel of every finding that has one (heatmap-channel.ts), scaled to 0..1. After an
 * anatomy stage the maps lie on the anatomy grid over the whole film, each finding's own part of its CAM in its
 * region (lung-heatmaps.ts, map-region.ts; the measured heart as its outline), with each map's mass per lung zone;
 * without one they are the CAM grid as the classifier gave it.
 */
export function buildHeatmaps(
  model: LoadedModel,
  outputs: Record<string, OutputTensor>,
  found: FoundAnatomy | null,
  film: GrayFilm,
  crop: PixelBox,
): { heatmaps: Heatmap[]; heatmapZones?: HeatmapZones[] } {
  if (!found) return { heatmaps: camHeatmaps(model, outputs) };
  const cams = model.manifest.cams ? outputs[model.manifest.cams.output] : undefined;
  const heatmaps = lungHeatmaps(
    model,
    cams,
    found.lung,
    found.box !== null,
    { filmWidth: film.width, filmHeight: film.height, crop },
    found.heart,
  );
  return { heatmaps, heatmapZones: found.box ? heatmapZones(heatmaps, found.lung) : [] };
}

/** The findings' CAM channels, each min-max scaled to 0..1 on the CAM grid. */
function camHeatmaps(model: LoadedModel, outputs: Record<string, OutputTensor>): Heatmap[] {
  const cams = model.manifest.cams;
  if (!cams) return [];
  const t = outputs[cams.output];
  if (!t || t.dims.length !== 4) return [];
  const h = t.dims[2]!;
  const w = t.dims[3]!;
  const maps: Heatmap[] = [];
  for (const f of model.findings) {
    const c = heatmapChannel(f, model.manifest);
    if (c < 0) continue;
    const raw = t.data.subarray(c * h * w, (c + 1) * h * w);
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of raw) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    const data = new Float32Array(h * w);
    for (let i = 0; i < raw.length; i++) data[i] = hi > lo ? (raw[i]! - lo) / (hi - lo) : 0;
    maps.push({ label: f.label, width: w, height: h, data });
  }
  return maps;
}
