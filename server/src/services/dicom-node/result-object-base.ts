import type { TImageRef } from './sr-content-items.js';
import { newUid } from './write-part10.js';

/** The received instance the results belong to: its UIDs, view and the stored patient/study tags. */
export interface TSourceInstance {
  sopClassUid: string | null;
  sopInstanceUid: string;
  studyInstanceUid: string | null;
  seriesInstanceUid: string | null;
  viewPosition?: string | null;
  tags: Record<string, string>;
}

export type TDataset = Record<string, unknown>;

/** What every result object of one send shares: the study, the film, and when they were made. */
export interface TResultContext {
  source: TSourceInstance;
  studyUid: string;
  film: TImageRef;
  date: string;
  time: string;
}

export function resultContext(source: TSourceInstance, now: Date): TResultContext {
  const iso = now.toISOString();
  return {
    source,
    studyUid: source.studyInstanceUid ?? newUid(),
    film: {
      ReferencedSOPClassUID: source.sopClassUid ?? '1.2.840.10008.5.1.4.1.1.1.1',
      ReferencedSOPInstanceUID: source.sopInstanceUid,
    },
    date: iso.slice(0, 10).replace(/-/g, ''),
    time: iso.slice(11, 19).replace(/:/g, ''),
  };
}

// eslint-disable-next-line no-control-regex -- control characters and the value separator are what is removed
const NOT_IN_A_VALUE = /[\x00-\x1f\x7f-\x9f\\]+/g;

/**
 * One value as its VR allows it (PS3.5 6.2): no control character (CR, LF, ESC, NUL…) and no
 * backslash, which would make a second value of a single-valued attribute, within the VR's
 * length. The stored tags are blanked when read from the wire, but rows can come from elsewhere
 * (an older version, a restored backup), and the results must stay valid objects whatever the
 * name holds; markup such as `<b>` is plain text to DICOM and stays as it is.
 */
export function dicomValue(value: string | undefined, maxLength: number): string {
  return (value ?? '').replace(NOT_IN_A_VALUE, ' ').replace(/ {2,}/g, ' ').trim().slice(0, maxLength).trim();
}

/**
 * A person name within 64 characters in all: PS3.5 allows 64 per component group, but dciodvfy
 * (and some PACS) hold the whole value to 64, and the results must pass both.
 */
export function dicomPersonName(value: string | undefined): string {
  return dicomValue(value, 64);
}

/**
 * The patient and study modules copied from the source, so the PACS files the results in the
 * same study; type 2 attributes are present even when empty. Each value goes through its VR's
 * rules (dicomValue), so no stored tag can make an invalid result object.
 */
export function patientAndStudy(ctx: TResultContext): TDataset {
  const t = ctx.source.tags;
  const description = dicomValue(t.StudyDescription, 64);
  return {
    SpecificCharacterSet: 'ISO_IR 192',
    PatientName: dicomPersonName(t.PatientName),
    PatientID: dicomValue(t.PatientID, 64),
    PatientBirthDate: dicomValue(t.PatientBirthDate, 8),
    PatientSex: dicomValue(t.PatientSex, 16),
    StudyInstanceUID: ctx.studyUid,
    StudyDate: dicomValue(t.StudyDate, 8),
    StudyTime: dicomValue(t.StudyTime, 16),
    ReferringPhysicianName: dicomPersonName(t.ReferringPhysicianName),
    StudyID: dicomValue(t.StudyID, 16),
    AccessionNumber: dicomValue(t.AccessionNumber, 16),
    ...(description ? { StudyDescription: description } : {}),
  };
}
