import sharp from 'sharp';
import { AppError } from '../../lib/app-error.js';
import { ANALYSIS_MESSAGES, MAX_IMAGE_PIXELS } from '@contracts/schemas/analysis.js';
import { checkModality } from './check-modality.js';
import { checkPixelBudget } from './check-pixel-budget.js';
import { TAG, textTag, type DataSet } from './dicom-lib.js';
import { parseDicomCapped } from './parse-dicom-capped.js';
import { patientOfDataSet, type TDicomPatient } from './read-dicom-patient.js';
import { readFrame, type TPixelLayout } from './read-frame.js';
import { renderGray } from './render-gray.js';
import { describeTransferSyntax, findTransferSyntax } from './transfer-syntax.js';
import { readVoi } from './read-voi.js';

export interface TDecodedDicom {
  /** 8-bit grayscale PNG of frame 1, as a viewer would display it: what the pipeline analyses. */
  png: Buffer;
  width: number;
  height: number;
  modality: string | null;
  transferSyntax: string;
  /** Things the user should know (missing modality, extra frames); never patient data. */
  warnings: string[];
  patient: TDicomPatient;
  /** ViewPosition when it is AP or PA (the projection the CTR is read on; it wins over the model's), else null. */
  viewPosition: 'AP' | 'PA' | null;
  /** The file as received with its 128-byte preamble zeroed: the only form ever stored. */
  sanitized: Buffer;
}

const MAX_SIDE = 20_000;
// The analysis pipeline's own cap: a larger DICOM would be refused after decoding anyway.
const MAX_PIXELS = MAX_IMAGE_PIXELS;

const bad = (message: string) => new AppError('BAD_REQUEST', message);

/**
 * The preamble is free for any use, which lets a file be a valid DICOM and a valid executable at
 * once (CVE-2019-11687); nothing reads it, so stored copies carry zeros there.
 */
export function zeroPreamble(buffer: Buffer): Buffer {
  const copy = Buffer.from(buffer);
  copy.fill(0, 0, Math.min(128, copy.length));
  return copy;
}

function layoutOf(ds: DataSet): TPixelLayout {
  const rows = ds.uint16(TAG.rows) ?? 0;
  const columns = ds.uint16(TAG.columns) ?? 0;
  const bitsAllocated = ds.uint16(TAG.bitsAllocated) ?? 0;
  const bitsStored = ds.uint16(TAG.bitsStored) ?? bitsAllocated;
  const pixelRepresentation = ds.uint16(TAG.pixelRepresentation) ?? 0;
  if (!rows || !columns || rows > MAX_SIDE || columns > MAX_SIDE)
    throw bad('The DICOM image size is missing or out of range');
  if (rows * columns > MAX_PIXELS) throw new AppError('PAYLOAD_TOO_LARGE', ANALYSIS_MESSAGES.tooManyPixels);
  if (bitsAllocated !== 8 && bitsAllocated !== 16)
    throw new AppError(
      'UNSUPPORTED_MEDIA',
      `DICOM images with ${bitsAllocated} bits allocated per pixel are not supported (8 or 16 are)`,
    );
  if (bitsStored < 1 || bitsStored > bitsAllocated) throw bad('The DICOM Bits Stored value is invalid');
  // Before any codec runs: the decoders allocate and compute whatever these tags claim.
  checkPixelBudget({ rows, columns, bitsAllocated, frames: Number(ds.intString(TAG.numberOfFrames) ?? 1) || 1 });
  return { rows, columns, bitsAllocated, bitsStored, pixelRepresentation };
}

/**
 * Reads a Part 10 chest radiograph: checks it, and renders frame 1 to a grayscale PNG. Hostile
 * or damaged files end in an AppError (a 4xx with a reason), never in an unexpected exception.
 */
export async function decodeDicom(buffer: Buffer): Promise<TDecodedDicom> {
  try {
    return await decodeChecked(buffer);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw bad('The DICOM file could not be read');
  }
}

async function decodeChecked(buffer: Buffer): Promise<TDecodedDicom> {
  const ds = parseDicomCapped(buffer);
  if (!ds) throw bad('The file is not a readable DICOM (Part 10) file');
  const modality = textTag(ds, TAG.modality);
  const warnings: string[] = [];
  const modalityWarning = checkModality(modality);
  if (modalityWarning) warnings.push(modalityWarning);

  const tsUid = (textTag(ds, TAG.transferSyntax) ?? '').replace(/\0/g, '');
  const syntax = findTransferSyntax(tsUid);
  if (!syntax)
    throw new AppError(
      'UNSUPPORTED_MEDIA',
      `DICOM ${describeTransferSyntax(tsUid)} compression is not supported. Please export the image uncompressed or as JPEG.`,
    );
  const photometric = textTag(ds, TAG.photometric) ?? 'MONOCHROME2';
  if ((ds.uint16(TAG.samplesPerPixel) ?? 1) !== 1 || (photometric !== 'MONOCHROME1' && photometric !== 'MONOCHROME2')) {
    throw new AppError('UNSUPPORTED_MEDIA', 'Only grayscale DICOM images (MONOCHROME1 or MONOCHROME2) can be analysed');
  }
  const layout = layoutOf(ds);
  const frames = Number(ds.intString(TAG.numberOfFrames) ?? 1);
  if (frames > 1) warnings.push(`The DICOM file has ${frames} frames; only the first was analysed.`);

  const stored = await readFrame(ds, syntax.encoding, layout);
  const gray = renderGray(stored, {
    slope: ds.floatString(TAG.rescaleSlope) ?? 1,
    intercept: ds.floatString(TAG.rescaleIntercept) ?? 0,
    voi: readVoi(ds, layout),
    invert: photometric === 'MONOCHROME1',
  });
  const png = await sharp(Buffer.from(gray.buffer, gray.byteOffset, gray.length), {
    raw: { width: layout.columns, height: layout.rows, channels: 1 },
  })
    .toColourspace('b-w')
    .png()
    .toBuffer();
  return {
    png,
    width: layout.columns,
    height: layout.rows,
    modality,
    transferSyntax: syntax.name,
    warnings,
    patient: patientOfDataSet(ds),
    viewPosition: viewPositionOf(ds),
    // Computed on demand: a full copy of the file that the upload path never needs.
    get sanitized() {
      return zeroPreamble(buffer);
    },
  };
}

/** 'AP' or 'PA' from ViewPosition (0018,5101); lateral, blank or anything else is null. */
export function viewPositionOf(ds: DataSet): 'AP' | 'PA' | null {
  const v = textTag(ds, TAG.viewPosition)?.trim().toUpperCase();
  return v === 'AP' || v === 'PA' ? v : null;
}
