/**
 * torchxrayvision's DenseNet contract (issue 47; torchxrayvision, Apache-2.0): one 224 x 224 gray
 * channel scaled to [-1024, 1024] (xrv.datasets.normalize(img, 255): x / 255 * 2048 - 1024), the
 * whole film centre-cropped to a square (XRayCenterCrop), and 18 outputs in its pathology order,
 * exported as logits (op_threshs removed before export, docs/models.md) so that the worker's
 * sigmoid gives the probability that its op_threshs were chosen on. The labels and op_threshs are
 * those of its "all" weights (densenet121-res224-all), from torchxrayvision/models.py model_urls.
 */
export const XRV_PATHOLOGIES = [
  'Atelectasis',
  'Consolidation',
  'Infiltration',
  'Pneumothorax',
  'Edema',
  'Emphysema',
  'Fibrosis',
  'Effusion',
  'Pneumonia',
  'Pleural_Thickening',
  'Cardiomegaly',
  'Nodule',
  'Mass',
  'Hernia',
  'Lung Lesion',
  'Fracture',
  'Lung Opacity',
  'Enlarged Cardiomediastinum',
] as const;

export const XRV_OP_THRESHS = [
  0.07422872, 0.038290843, 0.09814756, 0.0098118475, 0.023601074, 0.0022490358, 0.010060724, 0.103246614, 0.056810737,
  0.026791653, 0.050318155, 0.023985857, 0.01939503, 0.042889766, 0.053369623, 0.035975814, 0.20204692, 0.05015312,
] as const;

/** Each pathology's product finding; Lung Lesion, Fracture and Enlarged Cardiomediastinum have none and are not reported. */
export const XRV_TO_PRODUCT: Partial<Record<(typeof XRV_PATHOLOGIES)[number], string>> = {
  Atelectasis: 'atelectasis',
  Consolidation: 'consolidation',
  Infiltration: 'infiltration',
  Pneumothorax: 'pneumothorax',
  Edema: 'edema',
  Emphysema: 'emphysema',
  Fibrosis: 'fibrosis',
  Effusion: 'pleural_effusion',
  Pneumonia: 'pneumonia',
  Pleural_Thickening: 'pleural_thickening',
  Cardiomegaly: 'cardiomegaly',
  Nodule: 'nodule',
  Mass: 'mass',
  Hernia: 'hernia',
  'Lung Opacity': 'lung_opacity',
};

export const XRV_INPUT = { channels: 1, height: 224, width: 224, scale: 2048 / 255, mean: 1024, std: 1 } as const;
