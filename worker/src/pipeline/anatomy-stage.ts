import { cardiothoracicRatio, lungBox, maskFromLogits, type Box, type Mask } from './anatomy.js';
import { checkCtr, DEFAULT_CTR_CHECKS } from './check-ctr.js';
import { maskContour } from './contours.js';
import { modelGate } from './gate.js';
import { inferAnatomy } from './infer.js';
import { normalise } from './preprocess.js';
import type { AnatomyResult, GateChecks, GateVerdict, LoadedModel, ManifestAnatomy } from './types.js';

export interface AnatomyMasks {
  lung: Mask;
  heart: Mask;
}

/**
 * Model 2's first net on the whole film (planes 0..255 at the anatomy input size): the gate
 * verdict from its gate head and the lung and heart masks. An inverted film is run again the
 * right way round, so the masks always describe the upright film.
 */
export async function runAnatomyNet(
  model: LoadedModel,
  planes: Float64Array[],
  checks: GateChecks,
  flags: string[],
): Promise<{ gate: GateVerdict; masks: AnatomyMasks | null }> {
  const spec = model.manifest.anatomy!;
  let outputs = await inferAnatomy(model, normalise(planes, spec.input));
  let gate: GateVerdict = { accepted: true, reason: null, flags, code: null };
  const gateSpec = model.manifest.gate;
  const gateOut = gateSpec ? outputs[gateSpec.output] : undefined;
  if (gateSpec && gateOut) gate = modelGate(gateSpec, gateOut.data, checks, flags);
  if (!gate.accepted) return { gate, masks: null };
  if (gate.flags.includes('inverted'))
    outputs = await inferAnatomy(
      model,
      normalise(
        planes.map((p) => p.map((v) => 255 - v)),
        spec.input,
      ),
    );
  const m = outputs[spec.masks.output];
  if (!m || m.dims.length !== 4 || m.dims[1]! < 2)
    throw new Error(`anatomy output ${spec.masks.output} missing or not (1, 2, H, W)`);
  return { gate, masks: { lung: maskFromLogits(m.data, m.dims, 0), heart: maskFromLogits(m.data, m.dims, 1) } };
}

/**
 * Lung box, CTR, outlines and flags from the masks, with the manifest's constants. A ratio whose
 * outlines fail the plausibility checks is kept as `ctrMeasured` only: `ctr` is null, so it
 * never reaches a cardiomegaly call or the report's figure.
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
    anatomy: { ctr, ctrMeasured, ctrUnreliable, ctrReference: spec.ctrReference, lungBox: box, contours, flags },
    box,
  };
}
