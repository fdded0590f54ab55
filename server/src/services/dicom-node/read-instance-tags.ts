import { rawTextTag, textTag } from '../dicom/dicom-lib.js';
import { parseDicomHeader } from '../dicom/parse-dicom-capped.js';

/**
 * The attributes of a received instance that the node uses: the UIDs (deduplication, where the
 * results go in the study), the routing tags, and the patient and study attributes that the
 * secondary capture and the SR must repeat so the PACS files them with the study. Nothing else
 * of the header is kept (docs/dicom-network.md lists these).
 */
const TAGS = {
  SOPClassUID: 'x00080016',
  SOPInstanceUID: 'x00080018',
  StudyInstanceUID: 'x0020000d',
  SeriesInstanceUID: 'x0020000e',
  Modality: 'x00080060',
  BodyPartExamined: 'x00180015',
  ViewPosition: 'x00185101',
  StudyDescription: 'x00081030',
  PatientID: 'x00100020',
  PatientName: 'x00100010',
  PatientBirthDate: 'x00100030',
  PatientSex: 'x00100040',
  PatientAge: 'x00101010',
  StudyDate: 'x00080020',
  StudyTime: 'x00080030',
  AccessionNumber: 'x00080050',
  ReferringPhysicianName: 'x00080090',
  StudyID: 'x00200010',
} as const;

export type TInstanceTags = { [K in keyof typeof TAGS]: string | null };

/** The tags the results repeat, stored in dicom_instances.tags (patient and study modules). */
export const STORED_TAG_NAMES = [
  'PatientName',
  'PatientID',
  'PatientBirthDate',
  'PatientSex',
  'StudyDate',
  'StudyTime',
  'AccessionNumber',
  'ReferringPhysicianName',
  'StudyID',
  'StudyDescription',
] as const satisfies readonly (keyof TInstanceTags)[];

/** Reads the node's tags from a Part 10 file; null when the bytes are not readable DICOM. */
export function readInstanceTags(bytes: Uint8Array): TInstanceTags | null {
  // Header only, on the event loop: a Deflated bomb must not inflate here (issue 23, N1).
  const ds = parseDicomHeader(bytes);
  if (!ds) return null;
  const tags = Object.fromEntries(Object.entries(TAGS).map(([name, tag]) => [name, textTag(ds, tag)])) as TInstanceTags;
  // Read as sent, not blanked: a PatientID with a control character is refused (badPatientId).
  return { ...tags, PatientID: rawTextTag(ds, TAGS.PatientID) || null };
}

export const PATIENT_ID_MAX = 64;
export const BAD_PATIENT_ID = 'The PatientID holds a control character or is longer than 64 characters';

/**
 * Whether a PatientID can be trusted as one (issue 36, S8): `PID\0NUL` was read as `PID`, another
 * patient's ID. A control character (ESC included: escape sequences were decoded away) or more
 * than the 64 characters of an LO value refuses the instance.
 */
export function badPatientId(id: string | null): boolean {
  // eslint-disable-next-line no-control-regex -- the point is to find control characters
  return id !== null && (id.length > PATIENT_ID_MAX || /[\x00-\x1f\x7f]/.test(id));
}

export function storedTagsOf(tags: TInstanceTags): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of STORED_TAG_NAMES) if (tags[name]) out[name] = tags[name];
  return out;
}
