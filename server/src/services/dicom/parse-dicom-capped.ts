import { constants, inflateRawSync } from 'node:zlib';
import { AppError, isAppError } from '../../lib/app-error.js';
import { DICOM_INFLATES_TOO_LARGE, MAX_DICOM_PIXEL_BYTES } from '@contracts/dicom-limits.js';
import { checkPixelBudget, declaredPixelBytes, type TDeclaredPixels } from './check-pixel-budget.js';
import { dicomParser, isDicomBytes, TAG, type DataSet } from './dicom-lib.js';

// Room for all but the pixels in a Deflated data set: overlays, an icon image, private tags.
const OTHER_TAGS_BYTES = 8 * 1024 * 1024;
// The image tags (group 0028) sit near the start of the data set; this much inflated is plenty.
const PREFIX_BYTES = 256 * 1024;
// A header read (patient, study, routing tags) inflates at most this much of a Deflated data set.
const HEADER_BYTES = 1024 * 1024;
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

/**
 * The first `want` bytes (or more) of a raw deflate stream, or all of it if shorter: growing
 * input prefixes, each inflate bounded, so a bomb costs no more than a few MB here. Null if damaged.
 */
function inflatePrefix(deflated: Uint8Array, want: number, done?: (out: Buffer) => boolean): Buffer | null {
  for (let take = 1024; ; take *= 2) {
    const input = deflated.subarray(0, take);
    let out: Buffer;
    try {
      out = inflateRawSync(input, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: PREFIX_MAX_BYTES });
    } catch {
      return null;
    }
    if (out.length >= want || input.length === deflated.length || done?.(out)) return out;
  }
}

/** Rows, Columns, frames and Bits Allocated from the start of a Deflated data set, when it says. */
function declaredInPrefix(header: Uint8Array, deflated: Uint8Array): TDeclaredPixels | null {
  let declared: TDeclaredPixels | null = null;
  inflatePrefix(deflated, PREFIX_BYTES, (out) => (declared = declaredIn(Buffer.concat([header, out]))) !== null);
  return declared;
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

/**
 * The data set up to Pixel Data, for tag reads that run on the event loop (the DICOM node's
 * routing and patient tags): pixels are never read, and a Deflated data set is inflated only
 * as far as its first MB. Null when the bytes are not readable DICOM.
 */
export function parseDicomHeader(bytes: Uint8Array): DataSet | null {
  if (!isDicomBytes(bytes)) return null;
  const inflater = (b: Uint8Array, position: number) =>
    Buffer.concat([b.subarray(0, position), inflatePrefix(b.subarray(position), HEADER_BYTES) ?? Buffer.alloc(0)]);
  try {
    return parse(bytes, { untilTag: TAG.pixelData, inflater });
  } catch (err) {
    // A prefix ends mid-element: what was read before it is the header.
    return (err as { dataSet?: DataSet } | null)?.dataSet ?? null;
  }
}
