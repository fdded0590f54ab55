import { judgedAp } from '@contracts/finding-text.js';
import { cropResize, pixelBox, type Box, type PixelBox } from './anatomy.js';
import { centreSquare } from './check-image.js';
import { composeFindings, findingProbabilities } from './compose.js';
import type { FoundAnatomy } from './find-anatomy.js';
import { infer, type OutputTensor } from './infer.js';
import { invertGray, normalise } from './preprocess.js';
import { readProjection, type ViewPosition } from './read-projection.js';
import type { FindingResult, GrayFilm, Lap, LoadedModel, NotAssessed, ProjectionResult } from './types.js';

export interface Classified {
  findings: FindingResult[];
  topFinding: string | null;
  /** Findings that need the measured heart on a film without a plausible CTR ('no_ctr'). */
  notMeasurable: NotAssessed[];
  /** AP or PA (the DICOM ViewPosition wins), or null when neither the film nor the model says. */
  projection: ProjectionResult | null;
  /** The classifier's outputs, CAMs included. */
  outputs: Record<string, OutputTensor>;
  /** The part of the film the classifier saw. */
  crop: PixelBox;
}

/**
 * The classify stage: the projection, calibrated findings and calls. After an anatomy stage the
 * classifier runs on the full-resolution film (the right way round) cropped to the lung box when
 * the manifest says so, and findings that combine with the CTR use the measured one (and the
 * projection). Without an anatomy stage the classifier was the first net: the checks already ran
 * it on the whole film, and its outputs are read as they are. `lap` times 'crop' and 'classifier'
 * when the classifier runs here.
 */
export async function classifyFilm(
  model: LoadedModel,
  checked: { film: GrayFilm; flags: string[]; firstNet: Record<string, OutputTensor>; crop?: PixelBox | undefined },
  found: FoundAnatomy | null,
  lap: Lap,
  viewPosition: ViewPosition | null = null,
): Promise<Classified> {
  const { film } = checked;
  const spec = model.manifest.projection;
  const whole: PixelBox = { left: 0, top: 0, width: film.width, height: film.height };
  if (!found) {
    const projection = readProjection(spec, checked.firstNet, viewPosition);
    return {
      ...composeFindings(model, findingProbabilities(model, checked.firstNet)),
      projection,
      outputs: checked.firstNet,
      crop: checked.crop ?? whole,
    };
  }

  const { input } = model.manifest;
  let t = performance.now();
  const cropBox = classifierBox(input.crop, found.box, film);
  const gray = checked.flags.includes('inverted') ? invertGray(film.data) : film.data;
  const plane = cropResize(gray, film.width, film.height, cropBox, input.width);
  const x = normalise(
    Array.from({ length: input.channels }, () => plane),
    input,
  );
  t = lap('crop', t);
  const outputs = await infer(model, x);
  lap('classifier', t);
  return {
    ...callFindings(model, outputs, checked.firstNet, found.anatomy.ctr, viewPosition),
    outputs,
    crop: cropBox ? pixelBox(cropBox, film.width, film.height) : whole,
  };
}

/**
 * What the classifier sees after an anatomy stage, as fractions of the film: the lung-field box
 * ('lung-box', null when the anatomy net found none), the centred square ('centre': an imported
 * torchxrayvision model behind the shipped anatomy stage, issue 47) or the whole film.
 */
export function classifierBox(
  crop: 'lung-box' | 'centre' | undefined,
  lungBox: Box | null,
  film: GrayFilm,
): Box | null {
  if (crop === 'lung-box') return lungBox;
  if (crop !== 'centre') return null;
  const sq = centreSquare(film.width, film.height);
  return [
    sq.left / film.width,
    sq.top / film.height,
    (sq.left + sq.width) / film.width,
    (sq.top + sq.height) / film.height,
  ];
}

/**
 * The calls from the classifier's outputs after an anatomy stage: the projection, then findings
 * combined with the measured CTR (null: none trusted). Pure, so that an evaluation can call again
 * from stored outputs (bench/heart-and-maps/).
 */
export function callFindings(
  model: LoadedModel,
  outputs: Record<string, OutputTensor>,
  firstNet: Record<string, OutputTensor>,
  ctr: number | null,
  viewPosition: ViewPosition | null = null,
): Omit<Classified, 'outputs' | 'crop'> {
  const spec = model.manifest.projection;
  const projection = readProjection(spec, spec?.model === 'anatomy' ? firstNet : outputs, viewPosition);
  // Judged against the AP reference when either the DICOM tag or the model (p >= 0.8) says AP.
  const ap = judgedAp(projection);
  return { ...composeFindings(model, findingProbabilities(model, outputs, ctr, ap), ctr), projection };
}
