import * as dicomParserNs from 'dicom-parser';
import type { DataSet } from 'dicom-parser';
import { decodeDicomText } from './decode-dicom-text.js';

/**
 * dicom-parser ships a UMD bundle: Node's ESM loader exposes it only as `default`, bundlers as
 * named exports. This picks whichever is there so the same module works on the server and in
 * the browser (the analysis form reads patient tags client-side through read-dicom-patient.ts).
 */
const lib: typeof dicomParserNs =
  (dicomParserNs as unknown as { default?: typeof dicomParserNs }).default ?? dicomParserNs;

export const dicomParser = lib;
export type { DataSet, Element } from 'dicom-parser';

/** The 128-byte preamble is followed by the magic 'DICM' in every Part 10 file. */
export function isDicomBytes(bytes: Uint8Array): boolean {
  return bytes.length > 132 && bytes[128] === 0x44 && bytes[129] === 0x49 && bytes[130] === 0x43 && bytes[131] === 0x4d;
}

/** Parses a Part 10 file; null when it is not DICOM or too damaged to read a header from. */
export function parseDicomBytes(bytes: Uint8Array): DataSet | null {
  if (!isDicomBytes(bytes)) return null;
  try {
    return lib.parseDicom(bytes);
  } catch {
    // dicom-parser throws strings and plain objects; the caller only needs "unreadable".
    return null;
  }
}

const SPECIFIC_CHARACTER_SET = 'x00080005';
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL = /[\x00-\x1f\x7f]/g;

/**
 * A text tag decoded by the data set's Specific Character Set, with its padding (trailing spaces
 * and NULs, leading spaces) removed but anything else kept: the node refuses a PatientID with a
 * control character in it rather than reading a shorter one (issue 36, S8). Null when absent or
 * unreadable (a length past the end).
 */
export function rawTextTag(ds: DataSet, tag: string): string | null {
  const el = ds.elements[tag];
  if (!el || el.length === undefined || el.length <= 0) return null;
  const end = el.dataOffset + el.length;
  if (end > ds.byteArray.length) return null;
  const charset = tag === SPECIFIC_CHARACTER_SET ? null : ds.string(SPECIFIC_CHARACTER_SET);
  return decodeDicomText(ds.byteArray.subarray(el.dataOffset, end), charset).replace(/^ +|[ \0]+$/g, '');
}

/** A string tag decoded by its character set, control characters blanked, trimmed; null when absent or blank. */
export function textTag(ds: DataSet, tag: string): string | null {
  try {
    const t = rawTextTag(ds, tag)?.replace(CONTROL, ' ').trim();
    return t ? t : null;
  } catch {
    return null;
  }
}

export const TAG = {
  transferSyntax: 'x00020010',
  modality: 'x00080060',
  studyDate: 'x00080020',
  seriesDate: 'x00080021',
  acquisitionDate: 'x00080022',
  contentDate: 'x00080023',
  patientName: 'x00100010',
  patientBirthDate: 'x00100030',
  patientAge: 'x00101010',
  viewPosition: 'x00185101',
  samplesPerPixel: 'x00280002',
  photometric: 'x00280004',
  numberOfFrames: 'x00280008',
  rows: 'x00280010',
  columns: 'x00280011',
  bitsAllocated: 'x00280100',
  bitsStored: 'x00280101',
  highBit: 'x00280102',
  pixelRepresentation: 'x00280103',
  windowCenter: 'x00281050',
  windowWidth: 'x00281051',
  rescaleIntercept: 'x00281052',
  rescaleSlope: 'x00281053',
  voiLutFunction: 'x00281056',
  lutDescriptor: 'x00283002',
  lutData: 'x00283006',
  voiLutSequence: 'x00283010',
  pixelData: 'x7fe00010',
} as const;
