import { cardiothoracicRatio, ctrWidthLines, lungBox, maskFromLogits, type Box, type Mask } from './anatomy.js';
import { checkCtr, DEFAULT_CTR_CHECKS } from './check-ctr.js';
import { maskContour } from './contours.js';
import type { OutputTensor } from './infer.js';
import type { AnatomyResult, ManifestAnatomy } from './types.js';

export interface AnatomyMasks {
  lung: Mask;
  heart: Mask;
}

/**
 * What the anatomy stage hands on: the result, the lung box the classifier crops to, the lung mask
 * the heatmaps keep to and the heart mask whose border check-heart-border.ts looks at.
 */
export interface FoundAnatomy {
  anatomy: AnatomyResult;
  box: Box | null;
  lung: Mask;
  heart: Mask;
}

/**
 * The anatomy stage: lung and heart masks from the anatomy net's outputs (run by the checks on
 * the upright film), then lung box, CTR, outlines and flags with the manifest's constants.
 */
export function findAnatomy(spec: ManifestAnatomy, outputs: Record<string, OutputTensor>): FoundAnatomy {
  const masks = anatomyMasks(spec, outputs);
  return { ...measureAnatomy(spec, masks), lung: masks.lung, heart: masks.heart };
}

/** The thresholded lung and heart masks of the anatomy net's (1, 2, H, W) output. */
export function anatomyMasks(spec: ManifestAnatomy, outputs: Record<string, OutputTensor>): AnatomyMasks {
  const m = outputs[spec.masks.output];
  if (!m || m.dims.length !== 4 || m.dims[1]! < 2)
    throw new Error(`anatomy output ${spec.masks.output} missing or not (1, 2, H, W)`);
  return { lung: maskFromLogits(m.data, m.dims, 0), heart: maskFromLogits(m.data, m.dims, 1) };
}

/**
 * Lung box, CTR, outlines and flags from the masks. A ratio whose outlines fail the plausibility
 * checks is kept as `ctrMeasured` only: `ctr` is null, so it never reaches a cardiomegaly call or
 * the report's figure.
 */
export function measureAnatomy(
  spec: ManifestAnatomy,
  { lung, heart }: AnatomyMasks,
): { anatomy: AnatomyResult; box: Box | null } {
  const box = lungBox(lung, spec.boxMargin, spec.minLungFraction);
  const ctrMeasured = cardiothoracicRatio(lung, heart, spec.minHeartPixels, spec.minLungFraction);
  const ctrUnreliable =
    ctrMeasured === null ? null : checkCtr(lung, heart, ctrMeasured, { ...DEFAULT_CTR_CHECKS, ...spec.ctrChecks });
  const flags: string[] = [];
  if (!box) flags.push('no_lung_field');
  if (ctrMeasured === null) flags.push('no_heart');
  const contours = { lung: maskContour(lung), heart: maskContour(heart) };
  const ctr = ctrUnreliable ? null : ctrMeasured;
  return {
    anatomy: {
      ctr,
      ctrMeasured,
      ctrUnreliable,
      ctrReference: spec.ctrReference,
      // Only for a trusted ratio: the lines are drawn as the measurement on the PACS.
      ctrLines: ctr === null ? null : ctrWidthLines(lung, heart),
      lungBox: box,
      contours,
      flags,
    },
    box,
  };
}
