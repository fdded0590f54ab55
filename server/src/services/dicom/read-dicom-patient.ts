import { parseDicomBytes, TAG, textTag, type DataSet } from './dicom-lib.js';

/**
 * Patient facts a DICOM file carries, used to prefill an empty analysis form. Browser-safe (no
 * Node APIs): the web form calls readDicomPatient on the chosen file before uploading it.
 */
export interface TDicomPatient {
  name: string | null;
  /** Whole years; 0 for infants under one year; null when the file does not say. */
  age: number | null;
}

/** 'DOE^JOHN^Q^DR' → 'DR JOHN Q DOE'. Only the first (alphabetic) component group is used. */
export function formatPersonName(pn: string | null): string | null {
  if (!pn) return null;
  const [family = '', given = '', middle = '', prefix = '', suffix = ''] = (pn.split('=')[0] ?? '')
    .split('^')
    .map((p) => p.trim());
  const name = [prefix, given, middle, family, suffix].filter(Boolean).join(' ').replace(/\s+/g, ' ').trim();
  return name || null;
}

/** AS values: '045Y', '006M', '003W', '010D'. */
export function parseAgeString(as: string | null): number | null {
  const m = /^(\d{3})([DWMY])$/.exec(as?.trim() ?? '');
  if (!m) return null;
  const n = Number(m[1]);
  const years = m[2] === 'Y' ? n : m[2] === 'M' ? n / 12 : m[2] === 'W' ? (n * 7) / 365.25 : n / 365.25;
  return Math.floor(years);
}

function parseDa(da: string | null): { y: number; m: number; d: number } | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(da?.trim() ?? '');
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 ? { y, m: mo, d } : null;
}

/** Completed years between a birth date and the study date (both DA, 'YYYYMMDD'). */
export function ageAtStudy(birth: string | null, study: string | null): number | null {
  const b = parseDa(birth);
  const s = parseDa(study);
  if (!b || !s) return null;
  const age = s.y - b.y - (s.m < b.m || (s.m === b.m && s.d < b.d) ? 1 : 0);
  return age >= 0 && age <= 150 ? age : null;
}

export function patientOfDataSet(ds: DataSet): TDicomPatient {
  const studyDate =
    textTag(ds, TAG.studyDate) ??
    textTag(ds, TAG.seriesDate) ??
    textTag(ds, TAG.acquisitionDate) ??
    textTag(ds, TAG.contentDate);
  const age = parseAgeString(textTag(ds, TAG.patientAge)) ?? ageAtStudy(textTag(ds, TAG.patientBirthDate), studyDate);
  return { name: formatPersonName(textTag(ds, TAG.patientName)), age };
}

/** Name and age from a Part 10 file's bytes; null when the bytes are not DICOM. */
export function readDicomPatient(bytes: Uint8Array): TDicomPatient | null {
  const ds = parseDicomBytes(bytes);
  return ds ? patientOfDataSet(ds) : null;
}
