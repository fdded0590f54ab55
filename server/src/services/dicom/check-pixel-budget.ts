import { AppError } from '../../lib/app-error.js';
import { DICOM_PIXELS_TOO_LARGE, MAX_DICOM_PIXEL_BYTES } from '@contracts/dicom-limits.js';

export interface TDeclaredPixels {
  rows: number;
  columns: number;
  frames: number;
  bitsAllocated: number;
}

/** Bytes the pixel data takes once decoded, as the header declares it (never read from the pixels). */
export function declaredPixelBytes(d: TDeclaredPixels): number {
  return d.rows * d.columns * Math.max(1, d.frames) * Math.ceil(d.bitsAllocated / 8);
}

/**
 * Refuses, from the header alone, a file whose decoded pixels would exceed the budget: codecs
 * (OpenJPEG, CharLS, the RLE and lossless JPEG decoders) and the inflater allocate and compute
 * whatever the header claims, so a 732-byte JPEG 2000 stream can ask for 100 MB and seconds of CPU.
 */
export function checkPixelBudget(d: TDeclaredPixels): void {
  if (declaredPixelBytes(d) > MAX_DICOM_PIXEL_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', DICOM_PIXELS_TOO_LARGE);
}
