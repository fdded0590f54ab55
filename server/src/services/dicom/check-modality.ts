import { AppError } from '../../lib/app-error.js';

/** Plain radiographs: computed (CR), digital (DX) and conventional (RG) radiography. DR is not a
 * DICOM modality code but some vendors write it for digital radiography, so it is accepted too. */
export const RADIOGRAPH_MODALITIES = ['CR', 'DX', 'RG', 'DR'] as const;

const NAMES: Record<string, string> = {
  CT: 'computed tomography',
  MR: 'magnetic resonance',
  US: 'ultrasound',
  NM: 'nuclear medicine',
  PT: 'positron emission tomography',
  MG: 'mammography',
  XA: 'X-ray angiography',
  RF: 'fluoroscopy',
  IO: 'intra-oral radiography',
  PX: 'panoramic dental radiography',
  OT: 'other',
  SC: 'secondary capture',
  SR: 'structured report',
};

export const MISSING_MODALITY_WARNING = 'The DICOM file does not state its modality; it was treated as a radiograph.';

/**
 * Accepts plain radiographs and refuses everything else before any pixel is decoded: a CT
 * slice pushed through a chest X-ray classifier gives confident nonsense.
 * Returns a warning when the file does not say what it is.
 */
export function checkModality(modality: string | null): string | null {
  if (!modality) return MISSING_MODALITY_WARNING;
  const code = modality.toUpperCase();
  if ((RADIOGRAPH_MODALITIES as readonly string[]).includes(code)) return null;
  const name = NAMES[code];
  throw new AppError(
    'BAD_REQUEST',
    `This DICOM file is a ${code}${name ? ` (${name})` : ''} study, not a plain radiograph. Only chest X-rays (modality CR, DX or RG) can be analysed.`,
  );
}
