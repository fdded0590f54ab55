import { constants, inflateRawSync } from 'node:zlib';
import { AppError, isAppError } from '../../lib/app-error.js';
import { DICOM_INFLATES_TOO_LARGE, MAX_DICOM_PIXEL_BYTES } from '@contracts/dicom-limits.js';
import { checkPixelBudget, declaredPixelBytes, type TDeclaredPixels } from './check-pixel-budget.js';
import { dicomParser, isDicomBytes, TAG, type DataSet } from './dicom-lib.js';

// Room for all but the pixels in a Deflated data set: overlays, an icon image, private tags.
const OTHER_TAGS_BYTES = 8 * 1024 * 1024;
// The image tags (group 0028) sit near the start of the data set; this much inflated is plenty.
const PREFIX_BYTES = 256 * 1024;
// Deflate expands at most ~1032:1, so a prefix read from a few KB of input stays under this.
const PREFIX_MAX_BYTES = 8 * 1024 * 1024;

type TParseOptions = { untilTag?: string; inflater?: (bytes: Uint8Array, position: number) => Uint8Array };
const parse = dicomParser.parseDicom as (bytes: Uint8Array, options: TParseOptions) => DataSet;

/** Rows, Columns, frames and Bits Allocated from a (possibly cut) data set; null if it never says. */
function declaredIn(full: Uint8Array): TDeclaredPixels | null {
  let ds: DataSet | undefined;
  try {
    ds = parse(full, { untilTag: TAG.pixelData, inflater: () => full });
  } catch (err) {
    // dicom-parser throws { exception, dataSet } when the bytes end mid-element: keep what it read.
    ds = (err as { dataSet?: DataSet } | null)?.dataSet;
  }
  const rows = ds?.uint16(TAG.rows);
  const columns = ds?.uint16(TAG.columns);
  const bitsAllocated = ds?.uint16(TAG.bitsAllocated);
  if (!ds || !rows || !columns || !bitsAllocated) return null;
  return { rows, columns, bitsAllocated, frames: Number(ds.intString(TAG.numberOfFrames) ?? 1) || 1 };
}

/** Inflates growing prefixes of the data set (each call bounded) until the image tags appear. */
function declaredInPrefix(header: Uint8Array, deflated: Uint8Array): TDeclaredPixels | null {
  for (let take = 1024; ; take *= 2) {
    const input = deflated.subarray(0, take);
    let out: Buffer;
    try {
      out = inflateRawSync(input, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: PREFIX_MAX_BYTES });
    } catch {
      return null;
    }
    const declared = declaredIn(Buffer.concat([header, out]));
    if (declared || out.length >= PREFIX_BYTES || input.length === deflated.length) return declared;
  }
}

/**
 * dicom-parser inflates a Deflated data set with no output cap: a 1 MB file can expand to 1 GB.
 * This inflater caps the output at the pixel size the data set declares (itself within the
 * budget) plus room for the other tags, or at the budget when the prefix does not declare one.
 */
function cappedInflater(bytes: Uint8Array, position: number): Uint8Array {
  const header = bytes.subarray(0, position);
  const deflated = bytes.subarray(position);
  const declared = declaredInPrefix(header, deflated);
  if (declared) checkPixelBudget(declared);
  const cap = OTHER_TAGS_BYTES + (declared ? declaredPixelBytes(declared) : MAX_DICOM_PIXEL_BYTES);
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(deflated, { maxOutputLength: cap });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new AppError('PAYLOAD_TOO_LARGE', DICOM_INFLATES_TOO_LARGE);
    throw err;
  }
  return Buffer.concat([header, inflated]);
}

/**
 * The server's DICOM parse: as parseDicomBytes, but a Deflated data set is inflated under a cap.
 * Null when the file is not DICOM or too damaged to read; an AppError when it is refused.
 */
export function parseDicomCapped(bytes: Uint8Array): DataSet | null {
  if (!isDicomBytes(bytes)) return null;
  try {
    return parse(bytes, { inflater: cappedInflater });
  } catch (err) {
    if (isAppError(err)) throw err;
    return null;
  }
}
