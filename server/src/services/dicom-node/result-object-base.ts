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

/**
 * The patient and study modules copied from the source, so the PACS files the results in the
 * same study; type 2 attributes are present even when empty.
 */
export function patientAndStudy(ctx: TResultContext): TDataset {
  const t = ctx.source.tags;
  return {
    SpecificCharacterSet: 'ISO_IR 192',
    PatientName: t.PatientName ?? '',
    PatientID: t.PatientID ?? '',
    PatientBirthDate: t.PatientBirthDate ?? '',
    PatientSex: t.PatientSex ?? '',
    StudyInstanceUID: ctx.studyUid,
    StudyDate: t.StudyDate ?? '',
    StudyTime: t.StudyTime ?? '',
    ReferringPhysicianName: t.ReferringPhysicianName ?? '',
    StudyID: t.StudyID ?? '',
    AccessionNumber: t.AccessionNumber ?? '',
    ...(t.StudyDescription ? { StudyDescription: t.StudyDescription } : {}),
  };
}
