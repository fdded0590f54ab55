import { classifyLungCrop } from './classify-lung-crop.js';
import { composeFindings, composeHeatmaps, findingProbabilities } from './compose.js';
import { decodeImage } from './decode.js';
import { modelGate, postChecks, preChecks, refuse } from './gate.js';
import { infer } from './infer.js';
import { inputPlanes, normalise, resizeArea, toGray } from './preprocess.js';
import type { GrayFilm } from './explain.js';
import type { AnalysisResult, GateVerdict, LoadedModel } from './types.js';

export { loadModel } from './load-model.js';
export { overlayCodingFor, renderHeatmapOverlay, renderOverlay, type GrayFilm } from './explain.js';
export type * from './types.js';

/** A result and the film it was computed from (8-bit luma, the stored image's size), or null when the image did not decode. */
export interface FilmAnalysis {
  result: AnalysisResult;
  film: GrayFilm | null;
}

/** One image in, one structured result out (see analyseFilm). */
export async function runPipeline(image: Buffer, model: LoadedModel): Promise<AnalysisResult> {
  return (await analyseFilm(image, model)).result;
}

/**
 * One image in, one structured result out: decode, gate, preprocess, infer, calibrate,
 * compose. A model with an anatomy stage (model 2) runs it on the whole film first and
 * classifies the lung crop (classify-lung-crop.ts). A refused image comes back with the
 * gate's reason and no findings; only a broken model makes this throw. The decoded film comes
 * back beside the result so that the overlay is drawn without decoding the image again.
 */
export async function analyseFilm(image: Buffer, model: LoadedModel): Promise<FilmAnalysis> {
  const t0 = performance.now();
  const timingsMs: Record<string, number> = {};
  const lap = (name: string, since: number): number => {
    const now = performance.now();
    timingsMs[name] = Math.round((now - since) * 100) / 100;
    return now;
  };
  const { manifest } = model;
  const base = { modelVersion: manifest.modelVersion, modelName: manifest.modelName };
  // Model 2 results always carry the anatomy fields; model 1 results are as they were.
  const empty = manifest.anatomy ? { anatomy: null, notAssessed: [] } : {};
  const refused = (gate: GateVerdict, width = 0, height = 0): FilmAnalysis => {
    lap('total', t0);
    return {
      result: {
        ...base,
        gate,
        findings: [],
        ...empty,
        topFinding: null,
        heatmaps: [],
        image: { width, height },
        timingsMs,
      },
      film: null,
    };
  };

  const decoded = await decodeImage(image);
  let t = lap('decode', t0);
  if (!decoded.ok) return refused(refuse('undecodable', model.checks));
  const img = decoded.image;
  const pre = preChecks(img, model.checks);
  if (pre) return refused(refuse(pre, model.checks), img.width, img.height);

  // The gate's checks run at the first net's input: the anatomy stage's, else the classifier's.
  const first = manifest.anatomy?.input ?? manifest.input;
  const gray = toGray(img);
  const film: GrayFilm = { width: img.width, height: img.height, data: gray };
  const x255 = resizeArea(gray, img.width, img.height, first.width, first.height);
  const post = postChecks(x255, model.checks);
  t = lap('preprocess', t);
  if (post.code) return refused(refuse(post.code, model.checks, post.flags), img.width, img.height);

  if (manifest.anatomy) {
    const r = await classifyLungCrop(model, img, gray, x255, post.flags, lap);
    lap('total', t0);
    return { result: { ...base, ...r, image: { width: img.width, height: img.height }, timingsMs }, film };
  }

  let planes = inputPlanes(img, x255, manifest.input);
  let outputs = await infer(model, normalise(planes, manifest.input));
  let gate: GateVerdict = { accepted: true, reason: null, flags: post.flags, code: null };
  const gateOut = manifest.gate ? outputs[manifest.gate.output] : undefined;
  if (manifest.gate && gateOut) gate = modelGate(manifest.gate, gateOut.data, model.checks, post.flags);
  if (!gate.accepted) {
    lap('inference', t);
    return refused(gate, img.width, img.height);
  }
  if (gate.flags.includes('inverted')) {
    // Classify the film the right way round; the flag tells the reader it was inverted.
    planes = planes.map((p) => p.map((v) => 255 - v));
    outputs = await infer(model, normalise(planes, manifest.input));
  }
  t = lap('inference', t);
  const { findings, topFinding } = composeFindings(model, findingProbabilities(model, outputs));
  const heatmaps = composeHeatmaps(model, outputs);
  lap('compose', t);
  lap('total', t0);
  return {
    result: {
      ...base,
      gate,
      findings,
      topFinding,
      heatmaps,
      image: { width: img.width, height: img.height },
      timingsMs,
    },
    film,
  };
}
