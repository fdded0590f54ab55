import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Mask, PixelBox } from '../../worker/src/pipeline/anatomy.js';
import { buildHeatmaps } from '../../worker/src/pipeline/build-heatmaps.js';
import { callFindings } from '../../worker/src/pipeline/classify-film.js';
import { measureAnatomy, type FoundAnatomy } from '../../worker/src/pipeline/find-anatomy.js';
import type { OutputTensor } from '../../worker/src/pipeline/infer.js';
import type { FindingResult, Heatmap, LoadedModel, NotAssessed } from '../../worker/src/pipeline/types.js';

/** A tensor as JSON. */
export interface DumpedTensor {
  dims: number[];
  data: number[];
}

/** A mask as JSON: its size and its cells packed eight to a byte, base64. */
export interface PackedMask {
  width: number;
  height: number;
  bits: string;
}

/** One line of dump-film-outputs.ts. */
export type DumpedFilm =
  | { path: string; accepted: false }
  | {
      path: string;
      accepted: true;
      film: { width: number; height: number };
      crop: PixelBox;
      lung: PackedMask;
      heart: PackedMask;
      firstNet: Record<string, DumpedTensor>;
      classifier: Record<string, DumpedTensor>;
      ctrMeasured: number | null;
    };

export function packMask(m: Mask): PackedMask {
  const bytes = Buffer.alloc(Math.ceil(m.data.length / 8));
  for (let i = 0; i < m.data.length; i++) if (m.data[i]) bytes[i >> 3]! |= 1 << (i & 7);
  return { width: m.width, height: m.height, bits: bytes.toString('base64') };
}

export function unpackMask(p: PackedMask): Mask {
  const bytes = Buffer.from(p.bits, 'base64');
  const data = new Uint8Array(p.width * p.height);
  for (let i = 0; i < data.length; i++) data[i] = (bytes[i >> 3]! >> (i & 7)) & 1;
  return { width: p.width, height: p.height, data };
}

const toTensor = (t: DumpedTensor): OutputTensor => ({ dims: t.dims, data: Float32Array.from(t.data) });
const toTensors = (r: Record<string, DumpedTensor>): Record<string, OutputTensor> =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, toTensor(v)]));

/** What the pipeline had after the classify and heatmaps stages, rebuilt from a dumped line. */
export interface RebuiltFilm {
  path: string;
  found: FoundAnatomy;
  outputs: Record<string, OutputTensor>;
  findings: FindingResult[];
  topFinding: string | null;
  notMeasurable: NotAssessed[];
  heatmaps: Heatmap[];
  film: { width: number; height: number };
  crop: PixelBox;
}

/**
 * The pipeline's own stages from the anatomy masks on (measureAnatomy, callFindings, buildHeatmaps),
 * as run-pipeline.ts runs them before the heart-border check. The film's pixels are not needed:
 * the heatmaps read only its size.
 */
export function rebuildFilm(model: LoadedModel, d: Extract<DumpedFilm, { accepted: true }>): RebuiltFilm {
  const spec = model.manifest.anatomy!;
  const lung = unpackMask(d.lung);
  const heart = unpackMask(d.heart);
  const { anatomy, box } = measureAnatomy(spec, { lung, heart });
  const found: FoundAnatomy = { anatomy, box, lung, heart };
  const outputs = toTensors(d.classifier);
  const called = callFindings(model, outputs, toTensors(d.firstNet), anatomy.ctr);
  const film = { ...d.film, data: new Uint8Array(0) };
  const { heatmaps } = buildHeatmaps(model, outputs, found, film, d.crop);
  return { path: d.path, found, outputs, ...called, heatmaps, film: d.film, crop: d.crop };
}

/** Every line of a dump file. */
export async function readDump(file: string): Promise<DumpedFilm[]> {
  const out: DumpedFilm[] = [];
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim()) out.push(JSON.parse(line) as DumpedFilm);
  return out;
}
