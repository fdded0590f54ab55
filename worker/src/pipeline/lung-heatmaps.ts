import type { Mask, PixelBox } from './anatomy.js';
import { bilinearTaps, type BilinearTaps } from './bilinear-taps.js';
import { heatmapChannel } from './heatmap-channel.js';
import type { OutputTensor } from './infer.js';
import type { Heatmap, LoadedModel } from './types.js';

/** Where the classifier's input came from: the crop of a film of filmWidth x filmHeight pixels. */
export interface CropFrame {
  filmWidth: number;
  filmHeight: number;
  crop: PixelBox;
}

/**
 * For every column and row of the anatomy grid, the taps in the CAM grid of the point of the film
 * it covers (cell centre -> film pixel -> fraction of the crop -> CAM cells). Positions outside
 * the crop are clamped, but every lung cell lies inside the lung box.
 */
function camTaps(grid: Mask, frame: CropFrame, camW: number, camH: number): { x: BilinearTaps; y: BilinearTaps } {
  const { crop, filmWidth, filmHeight } = frame;
  const x = new Float64Array(grid.width);
  const y = new Float64Array(grid.height);
  for (let j = 0; j < grid.width; j++) x[j] = ((((j + 0.5) / grid.width) * filmWidth - crop.left) / crop.width) * camW;
  for (let i = 0; i < grid.height; i++)
    y[i] = ((((i + 0.5) / grid.height) * filmHeight - crop.top) / crop.height) * camH;
  return { x: bilinearTaps(x, camW), y: bilinearTaps(y, camH) };
}

/**
 * Heatmaps on the anatomy grid (the whole film), confined to the lungs: each finding's CAM
 * channel (heatmap-channel.ts) is sampled bilinearly at the crop position of every lung cell, cells outside the
 * lung mask are 0, and values are min-max scaled over the lung cells. `confine` false (no usable
 * lung field, the whole film was classified): the map covers the whole film.
 */
export function lungHeatmaps(
  model: LoadedModel,
  cams: OutputTensor | undefined,
  lung: Mask,
  confine: boolean,
  frame: CropFrame,
): Heatmap[] {
  const spec = model.manifest.cams;
  if (!spec || !cams || cams.dims.length !== 4) return [];
  const camH = cams.dims[2]!;
  const camW = cams.dims[3]!;
  const { x, y } = camTaps(lung, frame, camW, camH);
  const { width, height } = lung;
  const n = width * height;
  const maps: Heatmap[] = [];
  for (const f of model.findings) {
    const c = heatmapChannel(f, model.manifest);
    if (c < 0) continue;
    const cam = cams.data.subarray(c * camW * camH, (c + 1) * camW * camH);
    const raw = new Float64Array(n);
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < height; i++) {
      const r0 = y.i0[i]! * camW;
      const r1 = y.i1[i]! * camW;
      const ay = y.a[i]!;
      for (let j = 0; j < width; j++) {
        const k = i * width + j;
        if (confine && !lung.data[k]) continue;
        const x0 = x.i0[j]!;
        const x1 = x.i1[j]!;
        const ax = x.a[j]!;
        const v =
          (cam[r0 + x0]! * (1 - ax) + cam[r0 + x1]! * ax) * (1 - ay) +
          (cam[r1 + x0]! * (1 - ax) + cam[r1 + x1]! * ax) * ay;
        raw[k] = v;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
    const data = new Float32Array(n);
    if (hi > lo) {
      for (let k = 0; k < n; k++) if (!confine || lung.data[k]) data[k] = (raw[k]! - lo) / (hi - lo);
    }
    maps.push({ label: f.label, width, height, data });
  }
  return maps;
}
