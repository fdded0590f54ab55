import { buildHeatmaps } from './build-heatmaps.js';
import { checkHeartBorder } from './check-heart-border.js';
import { checkImage, refuse } from './check-image.js';
import { classifyFilm } from './classify-film.js';
import { decodeImage } from './decode-image.js';
import { findAnatomy } from './find-anatomy.js';
import type { ViewPosition } from './read-projection.js';
import type { AnalysisResult, GateVerdict, GrayFilm, LoadedModel } from './types.js';

export { loadModel } from './load-model.js';
export { drawOverlay, drawOverlayOnImage, overlayCodingFor } from './draw-overlay.js';
export type * from './types.js';
export type { ViewPosition };

/** What the caller knows about the film besides its pixels. */
export interface FilmContext {
  /** The DICOM ViewPosition (AP or PA) of a DICOM film: it wins over the model's projection output. */
  viewPosition?: ViewPosition | null;
}

/** A result and the film it was computed from (8-bit luma, the stored image's size), or null when refused. */
export interface FilmAnalysis {
  result: AnalysisResult;
  film: GrayFilm | null;
}

/** One image in, one structured result out (see analyseFilm). */
export async function runPipeline(
  image: Buffer,
  model: LoadedModel,
  context: FilmContext = {},
): Promise<AnalysisResult> {
  return (await analyseFilm(image, model, context)).result;
}

/**
 * One image in, one structured result out: decode → checks → anatomy → classify → heatmaps.
 * The anatomy stage runs when the model has one (model 2+); without it the classifier sees the
 * whole film. A refused image comes back with the refusal's code and no findings; only a broken
 * model makes this throw. The decoded film comes back beside the result, so that the worker draws
 * the overlay (draw-overlay.ts) without decoding the image again.
 */
export async function analyseFilm(image: Buffer, model: LoadedModel, context: FilmContext = {}): Promise<FilmAnalysis> {
  const t0 = performance.now();
  const timingsMs: Record<string, number> = {};
  const lap = (name: string, since: number): number => {
    const now = performance.now();
    timingsMs[name] = Math.round((now - since) * 100) / 100;
    return now;
  };
  const { manifest } = model;
  const base = { modelVersion: manifest.modelVersion, modelName: manifest.modelName };
  // Results of a model with an anatomy stage always carry its fields; other models' have none.
  const anatomyFields = manifest.anatomy ? { anatomy: null, notAssessed: [] } : {};
  // A model with a projection output (or a DICOM film) always says AP/PA; model 4 names its withdrawn outputs.
  const projects = manifest.projection !== undefined || Boolean(context.viewPosition);
  const withdrawn = manifest.withdrawn ? { withdrawn: manifest.withdrawn } : {};
  const refused = (gate: GateVerdict, width = 0, height = 0): FilmAnalysis => {
    lap('total', t0);
    const image = { width, height };
    return {
      result: {
        ...base,
        gate,
        findings: [],
        ...anatomyFields,
        topFinding: null,
        ...(projects ? { projection: null } : {}),
        heatmaps: [],
        image,
        timingsMs,
      },
      film: null,
    };
  };

  const decoded = await decodeImage(image);
  lap('decode', t0);
  if (!decoded.ok) return refused(refuse('undecodable', model));
  const { width, height } = decoded.image;

  const checked = await checkImage(decoded.image, model, lap);
  if (!checked.accepted) return refused(checked.gate, width, height);
  const { gate, film } = checked;

  let t = performance.now();
  const found = manifest.anatomy ? findAnatomy(manifest.anatomy, checked.firstNet) : null;
  if (found) lap('measure', t);

  const classified = await classifyFilm(
    model,
    { film, flags: gate.flags, firstNet: checked.firstNet, crop: checked.crop },
    found,
    lap,
    context.viewPosition ?? null,
  );

  const { projection, outputs, crop } = classified;

  t = performance.now();
  const { heatmaps, heatmapZones } = buildHeatmaps(model, outputs, found, film, crop);
  // A ratio whose heart border a flagged basal opacity or effusion hides enters no call.
  const border = found ? checkHeartBorder(model, found, classified, heatmaps) : null;
  const { findings, topFinding, notMeasurable } = border ?? classified;
  lap('compose', t);
  lap('total', t0);
  const notAssessed = [...(manifest.notAssessed ?? []), ...notMeasurable];
  const anatomy = found ? { anatomy: border?.anatomy ?? found.anatomy, notAssessed, heatmapZones } : {};
  const result = {
    ...base,
    gate,
    findings,
    topFinding,
    ...(projects ? { projection } : {}),
    ...withdrawn,
    heatmaps,
    ...anatomy,
    image: { width, height },
    timingsMs,
  };
  return { result, film };
}
