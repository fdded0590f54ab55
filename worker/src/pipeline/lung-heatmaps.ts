import { ctrWidthLines, type Mask, type PixelBox } from './anatomy.js';
import { bilinearTaps, type BilinearTaps } from './bilinear-taps.js';
import { heatmapChannel } from './heatmap-channel.js';
import type { OutputTensor } from './infer.js';
import { findingMapRegion, mapRegionMask } from './map-region.js';
import type { Heatmap, LoadedModel, ResolvedFinding } from './types.js';

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
 * The CAM channels a finding's map is contrasted with (issue 48 item 4): the adult findings the model
 * ships that read their own channel (not a summary score, not a pediatric hint, not one measured from
 * the heart). On a film with several flagged findings each finding's raw CAM is mostly the same
 * picture (where the film looks abnormal: the maps of two findings correlated at a median 0.96 on
 * the external films); less the mean of these channels, what is left is what sets the finding apart.
 */
export function contrastChannels(model: LoadedModel): number[] {
  const set = new Set<number>();
  for (const f of model.findings) {
    if (!contrasted(f)) continue;
    const c = heatmapChannel(f, model.manifest);
    if (c >= 0) set.add(c);
  }
  return [...set];
}

const contrasted = (f: ResolvedFinding): boolean => !f.summary && f.ageGroup !== 'pediatric' && !f.requiresCtr;

/** Channel c of the CAMs less the mean of `others` (CAM cells, logits); c itself when fewer than two. */
function specificCam(cams: Float32Array, cells: number, c: number, others: readonly number[]): Float64Array {
  const out = Float64Array.from(cams.subarray(c * cells, (c + 1) * cells));
  if (others.length < 2 || !others.includes(c)) return out;
  for (const o of others) {
    const src = cams.subarray(o * cells, (o + 1) * cells);
    for (let k = 0; k < cells; k++) out[k]! -= src[k]! / others.length;
  }
  return out;
}

/**
 * Heatmaps on the anatomy grid (the whole film). Each finding's CAM channel (heatmap-channel.ts) is
 * sampled bilinearly at the crop position of every cell of the finding's region (map-region.ts: the
 * lung fields for a parenchymal finding, the lungs and their pleural rim for a pleural one), cells
 * outside it are 0. A summary score or a pediatric hint keeps its CAM min-max scaled over the region.
 * A shipped adult finding shows what is specific to it: its CAM less the mean of the contrast channels,
 * above that difference's mean over the region, scaled to 1 at its peak (so about half the region stays
 * cold). A finding measured from the heart (cardiomegaly from the CTR) shows the heart's outline and the
 * two CTR widths instead of any lung map. `confine` false (no usable lung field, the whole film was
 * classified): the plain CAM over the whole film.
 */
export function lungHeatmaps(
  model: LoadedModel,
  cams: OutputTensor | undefined,
  lung: Mask,
  confine: boolean,
  frame: CropFrame,
  heart: Mask | null = null,
): Heatmap[] {
  const spec = model.manifest.cams;
  if (!spec || !cams || cams.dims.length !== 4) return [];
  const camH = cams.dims[2]!;
  const camW = cams.dims[3]!;
  const { x, y } = camTaps(lung, frame, camW, camH);
  const { width, height } = lung;
  const n = width * height;
  const others = confine ? contrastChannels(model) : [];
  const regions = new Map<string, Uint8Array | null>();
  const maps: Heatmap[] = [];
  for (const f of model.findings) {
    const c = heatmapChannel(f, model.manifest);
    if (c < 0) continue;
    const kind = confine ? findingMapRegion(f) : 'film';
    if (kind === 'heart') {
      if (heart) maps.push({ label: f.label, width, height, data: heartOutlineMap(lung, heart) });
      continue;
    }
    if (!regions.has(kind)) regions.set(kind, kind === 'film' ? null : mapRegionMask(kind, lung, heart));
    const region = regions.get(kind)!;
    const specific = contrasted(f) && others.length >= 2;
    const cam = specificCam(cams.data, camW * camH, c, specific ? others : []);
    const raw = new Float64Array(n);
    let lo = Infinity;
    let hi = -Infinity;
    let sum = 0;
    let count = 0;
    for (let i = 0; i < height; i++) {
      const r0 = y.i0[i]! * camW;
      const r1 = y.i1[i]! * camW;
      const ay = y.a[i]!;
      for (let j = 0; j < width; j++) {
        const k = i * width + j;
        if (region && !region[k]) continue;
        const x0 = x.i0[j]!;
        const x1 = x.i1[j]!;
        const ax = x.a[j]!;
        const v =
          (cam[r0 + x0]! * (1 - ax) + cam[r0 + x1]! * ax) * (1 - ay) +
          (cam[r1 + x0]! * (1 - ax) + cam[r1 + x1]! * ax) * ay;
        raw[k] = v;
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
        sum += v;
        count++;
      }
    }
    // A specific map is cold below its mean over the region; a plain one spans the region min-max.
    const from = specific && count > 0 ? sum / count : lo;
    const data = new Float32Array(n);
    if (hi > from) {
      for (let k = 0; k < n; k++) if (!region || region[k]) data[k] = Math.max(0, (raw[k]! - from) / (hi - from));
    }
    maps.push({ label: f.label, width, height, data });
  }
  return maps;
}

/**
 * The measured heart as a map: its outline (the heart mask's edge cells, widened to three cells so
 * that it survives the stored grid's 2 x 2 averaging) and the two widths the CTR divides
 * (ctrWidthLines, three rows thick), at 1; every other cell 0.
 */
export function heartOutlineMap(lung: Mask, heart: Mask): Float32Array {
  const { width, height } = heart;
  const data = new Float32Array(width * height);
  const inside = (i: number, j: number): boolean =>
    i >= 0 && j >= 0 && i < height && j < width && heart.data[i * width + j] === 1;
  const mark = (i: number, j: number): void => {
    if (i >= 0 && j >= 0 && i < height && j < width) data[i * width + j] = 1;
  };
  for (let i = 0; i < height; i++)
    for (let j = 0; j < width; j++) {
      if (!inside(i, j)) continue;
      if (inside(i - 1, j) && inside(i + 1, j) && inside(i, j - 1) && inside(i, j + 1)) continue;
      for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) mark(i + di, j + dj);
    }
  const lines = ctrWidthLines(lung, heart);
  for (const line of lines ? [lines.heart, lines.thorax] : []) {
    const row = Math.floor(line[1] * height);
    const to = Math.ceil(line[2] * width) - 1;
    for (let j = Math.floor(line[0] * width); j <= to; j++) for (let di = -1; di <= 1; di++) mark(row + di, j);
  }
  return data;
}
