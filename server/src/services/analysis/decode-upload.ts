import sharp, { type Metadata } from 'sharp';
import { AppError } from '../../lib/app-error.js';
import { ANALYSIS_MESSAGES, MAX_IMAGE_PIXELS } from '@contracts/schemas/analysis.js';
import { STORED_JPEG_OPTIONS } from '@contracts/stored-jpeg.js';
import { decodeDicomUpload } from '../dicom/decode-dicom-upload.js';
import { isDicomBytes } from '../dicom/dicom-lib.js';
import type { TDecodedUpload } from './decoded-upload.js';

export type { TDecodedUpload };

export type TUploadFormat = 'jpeg' | 'png' | 'webp';

/** The format named by the first bytes, whatever the file name or the client's content type say. */
export function sniffFormat(buf: Buffer): TUploadFormat | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return null;
}

/**
 * Checks that an upload really is a JPEG, PNG or WebP image (magic bytes, then a full decode so
 * a truncated or corrupt file is refused here rather than in the worker), caps its pixel count
 * against decompression bombs, and re-encodes it to strip metadata.
 * A DICOM file (magic 'DICM' at offset 128) is rendered by services/dicom into the same shape.
 *
 * JPEG stays JPEG (STORED_JPEG_OPTIONS: no second round of heavy loss, no slow Huffman
 * optimisation); PNG and WebP become PNG (lossless). Channels are kept: a colour photograph must stay colour so
 * that the worker's gate can refuse it, and a grayscale film stays single-channel.
 */
export async function decodeUpload(buf: Buffer): Promise<TDecodedUpload> {
  if (isDicomBytes(buf)) return decodeDicomUpload(buf);
  const format = sniffFormat(buf);
  if (!format) throw new AppError('UNSUPPORTED_MEDIA', ANALYSIS_MESSAGES.invalidType);
  const input = () => sharp(buf, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS, pages: 1 });
  let meta: Metadata;
  try {
    meta = await input().metadata();
  } catch (err) {
    throw refusalOf(err);
  }
  if (meta.format !== format) {
    throw new AppError('UNSUPPORTED_MEDIA', ANALYSIS_MESSAGES.invalidType);
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_IMAGE_PIXELS) {
    throw new AppError('PAYLOAD_TOO_LARGE', ANALYSIS_MESSAGES.tooManyPixels);
  }
  try {
    // rotate() bakes the EXIF orientation into the pixels before the metadata is dropped.
    const pipeline = input().rotate();
    const out = format === 'jpeg' ? pipeline.jpeg(STORED_JPEG_OPTIONS) : pipeline.png({ compressionLevel: 4 });
    const { data, info } = await out.toBuffer({ resolveWithObject: true });
    return { data, mediaType: format === 'jpeg' ? 'image/jpeg' : 'image/png', width: info.width, height: info.height };
  } catch (err) {
    throw refusalOf(err);
  }
}

function refusalOf(err: unknown): AppError {
  if (err instanceof Error && /pixel limit/i.test(err.message))
    return new AppError('PAYLOAD_TOO_LARGE', ANALYSIS_MESSAGES.tooManyPixels);
  return new AppError('UNSUPPORTED_MEDIA', ANALYSIS_MESSAGES.invalidType);
}
