import { cropResize, invertGray, pixelBox, type PixelBox } from './anatomy.js';
import { measureAnatomy, runAnatomyNet } from './anatomy-stage.js';
import { composeFindings, findingProbabilities } from './compose.js';
import type { DecodedImage } from './decode.js';
import { infer } from './infer.js';
import { heatmapZones as zonesOf } from './heatmap-zones.js';
import { lungHeatmaps } from './lung-heatmaps.js';
import { inputPlanes, normalise } from './preprocess.js';
import type { AnalysisResult, LoadedModel } from './types.js';

/** Records a stage's time since `since` and returns now. */
export type Lap = (stage: string, since: number) => number;

export type ModelTwoOutcome = Pick<
  AnalysisResult,
  'gate' | 'findings' | 'topFinding' | 'heatmaps' | 'anatomy' | 'notAssessed' | 'heatmapZones'
>;

/**
 * Model 2 after the deterministic checks: anatomy net (gate + masks) on the whole film, lung
 * box and CTR from the masks, the classifier on the full-resolution film cropped to the lung
 * box, calibrated findings (with the CTR where the manifest combines them), heatmaps confined
 * to the lungs on the anatomy grid.
 *
 * `gray` is the decoded film's luma at full resolution, `x255` the same stretched to the
 * anatomy input (0..255), `flags` those of the checks so far.
 */
export async function classifyLungCrop(
  model: LoadedModel,
  img: DecodedImage,
  gray: Uint8Array,
  x255: Float64Array,
  flags: string[],
  lap: Lap,
): Promise<ModelTwoOutcome> {
  const { manifest } = model;
  const spec = manifest.anatomy!;
  let t = performance.now();
  const { gate, masks } = await runAnatomyNet(model, inputPlanes(img, x255, spec.input), model.checks, flags);
  t = lap('anatomy', t);
  if (!gate.accepted || !masks)
    return { gate, findings: [], topFinding: null, heatmaps: [], anatomy: null, notAssessed: [] };

  const { anatomy, box } = measureAnatomy(spec, masks);
  t = lap('measure', t);
  const cropBox = manifest.input.crop === 'lung-box' ? box : null;
  const film = gate.flags.includes('inverted') ? invertGray(gray) : gray;
  const plane = cropResize(film, img.width, img.height, cropBox, manifest.input.width);
  const input = normalise(
    Array.from({ length: manifest.input.channels }, () => plane),
    manifest.input,
  );
  t = lap('crop', t);

  const outputs = await infer(model, input);
  t = lap('classifier', t);

  const { findings, topFinding } = composeFindings(
    model,
    findingProbabilities(model, outputs, anatomy.ctr),
    anatomy.ctr,
  );
  const crop: PixelBox = cropBox
    ? pixelBox(cropBox, img.width, img.height)
    : { left: 0, top: 0, width: img.width, height: img.height };
  const cams = manifest.cams ? outputs[manifest.cams.output] : undefined;
  const heatmaps = lungHeatmaps(model, cams, masks.lung, box !== null, {
    filmWidth: img.width,
    filmHeight: img.height,
    crop,
  });
  lap('compose', t);
  const heatmapZones = box ? zonesOf(heatmaps, masks.lung) : [];
  return { gate, findings, topFinding, heatmaps, heatmapZones, anatomy, notAssessed: manifest.notAssessed ?? [] };
}
