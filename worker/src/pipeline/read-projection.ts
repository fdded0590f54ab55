import { projectionDisagrees } from '@contracts/finding-text.js';
import { sigmoid } from './calibrate.js';
import type { OutputTensor } from './infer.js';
import type { ManifestProjection, ProjectionResult } from './types.js';

/** A DICOM ViewPosition the product acts on; any other value (LL, blank) leaves the model to decide. */
export type ViewPosition = 'AP' | 'PA';

/**
 * The film's projection: the DICOM ViewPosition when the film has one (it wins), else the model's
 * projection output (p(AP) = sigmoid(logit / temperature + bias), AP from `threshold`); null when
 * neither says. The model's p(AP) is kept beside a DICOM call so both can be shown, and
 * `disagrees` says when the model reads the other projection with p >= 0.8 (issue 42 item 7).
 */
export function readProjection(
  spec: ManifestProjection | undefined,
  outputs: Record<string, OutputTensor>,
  viewPosition: ViewPosition | null,
): ProjectionResult | null {
  const probabilityAP = spec ? projectionProbability(spec, outputs) : null;
  if (viewPosition) {
    const read = { call: viewPosition, probabilityAP, source: 'dicom' } as const;
    return { ...read, disagrees: projectionDisagrees(read) };
  }
  if (!spec || probabilityAP === null) return null;
  return { call: probabilityAP >= spec.threshold ? 'AP' : 'PA', probabilityAP, source: 'model', disagrees: false };
}

/** Calibrated p(AP) of batch item 0 of the spec's [N, 1] logit output. */
export function projectionProbability(spec: ManifestProjection, outputs: Record<string, OutputTensor>): number {
  const t = outputs[spec.output];
  if (!t || t.dims.length !== 2 || t.dims[1] !== 1 || t.data.length < 1)
    throw new Error(`projection output ${spec.output} missing or not (N, 1)`);
  return sigmoid(t.data[0]! / spec.temperature + spec.bias);
}
