import { cropGray, type PixelBox } from './anatomy.js';
import { softmax } from './calibrate.js';
import type { DecodedImage } from './decode-image.js';
import { infer, inferAnatomy, type OutputTensor } from './infer.js';
import { inputPlanes, invertPlanes, normalise, resizeArea, toGray } from './preprocess.js';
import type { GateReasonCode, GateVerdict, GrayFilm, Lap, LoadedModel, ManifestGate } from './types.js';

/*
 * The checks stage (the input gate): deterministic checks on the pixels (mirrored by
 * models/train/cxr_train/gate/checks.py), then the gate head of the model's first net when the
 * manifest has one. A refusal is a code; the server words it.
 */

export type CheckedImage =
  | { accepted: false; gate: GateVerdict }
  | {
      accepted: true;
      gate: GateVerdict;
      /** The decoded film's luma, for the stages after and the overlay. */
      film: GrayFilm;
      /** The first net's outputs on the film the right way round (flag 'inverted': run again inverted). */
      firstNet: Record<string, OutputTensor>;
      /** The part of the film the first net saw when the manifest crops the whole film ('centre'), else absent. */
      crop?: PixelBox;
    };

/** The largest centred square of a width x height film (torchxrayvision's XRayCenterCrop). */
export function centreSquare(width: number, height: number): PixelBox {
  const side = Math.min(width, height);
  return { left: Math.floor((width - side) / 2), top: Math.floor((height - side) / 2), width: side, height: side };
}

/** A refusal for `code`; too_small quotes the model's minimum side. */
export function refuse(code: GateReasonCode, model: LoadedModel, flags: string[] = []): GateVerdict {
  return { accepted: false, code, flags, ...(code === 'too_small' ? { minSide: model.checks.minSide } : {}) };
}

/**
 * Checks a decoded image, then runs the model's first net on it: the anatomy net, or the classifier
 * of a model without an anatomy stage. Its gate head (when the manifest has one) may refuse the film
 * or find it inverted; an inverted film is run again the right way round, so the outputs always
 * describe the upright film. `lap` times 'preprocess' and the first net ('anatomy' or 'inference').
 */
export async function checkImage(img: DecodedImage, model: LoadedModel, lap: Lap): Promise<CheckedImage> {
  const { manifest, checks } = model;
  let t = performance.now();
  const shape = shapeCheck(img, model);
  if (shape) return { accepted: false, gate: refuse(shape, model) };
  // One pass over the pixels gives the luma and the colour check (issue 42: two passes over a 3 MP
  // RGB film were a third of the preprocess stage).
  const { gray, coloured } = grayAndColour(img, checks.chromaLevel);
  if (coloured > checks.maxColourFraction) return { accepted: false, gate: refuse('colour', model) };
  const input = manifest.anatomy?.input ?? manifest.input;
  // An imported whole-film model (issue 47) sees the centred square, as torchxrayvision's models were trained.
  const box = !manifest.anatomy && input.crop === 'centre' ? centreSquare(img.width, img.height) : null;
  const x255 = box
    ? resizeArea(cropGray(gray, img.width, box), box.width, box.height, input.width, input.height)
    : resizeArea(gray, img.width, img.height, input.width, input.height);
  const sd = stdDev(x255);
  t = lap('preprocess', t);
  if (sd < checks.blankStd) return { accepted: false, gate: refuse('blank', model) };
  const flags = sd < checks.lowContrastStd ? ['low_contrast'] : [];

  const run = (planes: Float64Array[]) =>
    manifest.anatomy ? inferAnatomy(model, normalise(planes, input)) : infer(model, normalise(planes, input));
  const planes = box ? Array.from({ length: input.channels }, () => x255) : inputPlanes(img, x255, input);
  let outputs = await run(planes);
  const gateOut = manifest.gate ? outputs[manifest.gate.output] : undefined;
  const gate = manifest.gate && gateOut ? modelGate(manifest.gate, gateOut.data, flags) : accept(flags);
  if (gate.accepted && gate.flags.includes('inverted')) outputs = await run(invertPlanes(planes));
  lap(manifest.anatomy ? 'anatomy' : 'inference', t);
  if (!gate.accepted) return { accepted: false, gate };
  return {
    accepted: true,
    gate,
    film: { width: img.width, height: img.height, data: gray },
    firstNet: outputs,
    ...(box ? { crop: box } : {}),
  };
}

const accept = (flags: string[]): GateVerdict => ({ accepted: true, code: null, flags });

/** Fraction of clearly coloured pixels (max-min channel difference >= chromaLevel). */
export function colourFraction(img: DecodedImage, chromaLevel: number): number {
  if (img.channels < 3) return 0;
  const { data, channels } = img;
  const n = img.width * img.height;
  let coloured = 0;
  for (let i = 0, o = 0; i < n; i++, o += channels) {
    const r = data[o]!;
    const g = data[o + 1]!;
    const b = data[o + 2]!;
    // Spelled out (no Math.max/min of three): this runs over every pixel of a 3 MP RGB film.
    const hi = r > g ? (r > b ? r : b) : g > b ? g : b;
    const lo = r < g ? (r < b ? r : b) : g < b ? g : b;
    if (hi - lo >= chromaLevel) coloured++;
  }
  return coloured / n;
}

/**
 * The film's luma (toGray) and its fraction of clearly coloured pixels (colourFraction) in one
 * pass: the same values as the two functions, read from memory once.
 */
export function grayAndColour(img: DecodedImage, chromaLevel: number): { gray: Uint8Array; coloured: number } {
  if (img.channels < 3) return { gray: toGray(img), coloured: 0 };
  const { data, channels } = img;
  const n = img.width * img.height;
  const gray = new Uint8Array(n);
  let coloured = 0;
  for (let i = 0, o = 0; i < n; i++, o += channels) {
    const r = data[o]!;
    const g = data[o + 1]!;
    const b = data[o + 2]!;
    if (r === g && g === b) {
      gray[i] = r;
      if (chromaLevel <= 0) coloured++;
      continue;
    }
    gray[i] = ((r * 299 + g * 587 + b * 114 + 500) / 1000) | 0;
    const hi = r > g ? (r > b ? r : b) : g > b ? g : b;
    const lo = r < g ? (r < b ? r : b) : g < b ? g : b;
    if (hi - lo >= chromaLevel) coloured++;
  }
  return { gray, coloured: coloured / n };
}

/** Checks on the decoded image's size and shape. */
function shapeCheck(img: DecodedImage, { checks }: LoadedModel): GateReasonCode | null {
  const short = Math.min(img.width, img.height);
  if (short < checks.minSide) return 'too_small';
  if (Math.max(img.width, img.height) / short > checks.maxAspect) return 'aspect_ratio';
  return null;
}

/** Population standard deviation, two passes in float64 like numpy. */
export function stdDev(x: Float64Array): number {
  let mean = 0;
  for (const v of x) mean += v;
  mean /= x.length;
  let ss = 0;
  for (const v of x) ss += (v - mean) * (v - mean);
  return Math.sqrt(ss / x.length);
}

/** The model's gate head: refuses what is not a chest radiograph, flags an inverted one. */
function modelGate(gate: ManifestGate, logits: Float32Array, flags: string[]): GateVerdict {
  const p =
    gate.activation === 'softmax' ? softmax(Array.from(logits)) : Array.from(logits, (z) => 1 / (1 + Math.exp(-z)));
  const at = (label: string | undefined): number => (label ? (p[gate.labels.indexOf(label)] ?? 0) : 0);
  if (at(gate.rejectLabel) >= gate.rejectThreshold) return { accepted: false, code: 'not_cxr', flags };
  const inverted = gate.invertedLabel !== undefined && at(gate.invertedLabel) > at(gate.acceptLabel);
  return accept(inverted ? [...flags, 'inverted'] : flags);
}
