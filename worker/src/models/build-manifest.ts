import { XRV_INPUT, XRV_OP_THRESHS, XRV_PATHOLOGIES, XRV_TO_PRODUCT } from '@contracts/model/torchxrayvision.js';

/**
 * The manifest an imported torchxrayvision DenseNet is served with: its input contract, one
 * sigmoid head over its 18 outputs in pathology order, and one finding per pathology the product
 * knows, at torchxrayvision's own op_threshs until a site cohort measures its operating points.
 */
export function torchxrayvisionManifest(opts: {
  name: string;
  version: string;
  sha256: string;
  opset: number;
  inputName: string;
  outputName: string;
  displays: Map<string, string>;
}): Record<string, unknown> {
  const findings = XRV_PATHOLOGIES.flatMap((p, i) => {
    const label = XRV_TO_PRODUCT[p];
    if (!label || !opts.displays.has(label)) return [];
    return [
      { label, display: opts.displays.get(label), threshold: XRV_OP_THRESHS[i], source: { head: 'xrv', label: p } },
    ];
  });
  return {
    schemaVersion: 2,
    modelName: opts.name,
    modelVersion: opts.version,
    file: 'model.onnx',
    sha256: opts.sha256,
    opset: opts.opset,
    contract: 'torchxrayvision',
    trainingData: 'torchxrayvision weights as exported by the site (docs/models.md)',
    input: {
      name: opts.inputName,
      layout: 'NCHW',
      channels: XRV_INPUT.channels,
      height: XRV_INPUT.height,
      width: XRV_INPUT.width,
      colour: 'gray-bt601',
      resize: 'area-stretch',
      crop: 'centre',
      scale: XRV_INPUT.scale,
      mean: [XRV_INPUT.mean],
      std: [XRV_INPUT.std],
    },
    heads: [{ name: 'xrv', output: opts.outputName, activation: 'sigmoid', labels: [...XRV_PATHOLOGIES] }],
    uncertainMargin: 0,
    findings,
  };
}
