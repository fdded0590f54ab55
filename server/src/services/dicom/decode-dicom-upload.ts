import { AppError } from '../../lib/app-error.js';
import { ANALYSIS_MESSAGES, MAX_IMAGE_PIXELS } from '@contracts/schemas/analysis.js';
import type { TDecodedUpload } from '../analysis/decoded-upload.js';
import { decodeDicomInThread } from './decode-dicom-pool.js';

/**
 * The upload hook's DICOM branch: the rendered grayscale PNG is what gets stored and analysed.
 * The decode runs in a worker thread (decode-dicom-pool.ts): a hostile file costs that thread
 * its time and memory limits, never the event loop every other request waits on.
 * The original file is not kept (its header is full of identifiers the product does not need);
 * code that ever keeps originals must store `decodeDicom(...).sanitized`, whose preamble is zeroed.
 */
export async function decodeDicomUpload(buf: Buffer): Promise<TDecodedUpload> {
  const d = await decodeDicomInThread({ bytes: buf });
  if (d.width * d.height > MAX_IMAGE_PIXELS) throw new AppError('PAYLOAD_TOO_LARGE', ANALYSIS_MESSAGES.tooManyPixels);
  return {
    data: Buffer.from(d.png.buffer, d.png.byteOffset, d.png.length),
    mediaType: 'image/png',
    width: d.width,
    height: d.height,
    dicomPatient: d.patient,
    ...(d.viewPosition ? { viewPosition: d.viewPosition } : {}),
  };
}
