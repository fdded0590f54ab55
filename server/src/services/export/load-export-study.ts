import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { dicomInstances } from '../../db/schema.js';
import { generatedAccession } from '../report/hl7/load-oru-study.js';

/**
 * What a receiving system files the FHIR export under (issue 49): the patient's identifier, the
 * accession number and the Study Instance UID. A film from the DICOM network has its PatientID,
 * AccessionNumber and StudyInstanceUID; a browser upload has none of them, and the patient is
 * then identified by this installation's own record (the patient profile, else the chat).
 */
export interface TExportStudy {
  patient: { kind: 'dicom' | 'profile' | 'chat'; system: string; value: string };
  /** The signed report's own identifier in this installation (the analysis it reads). */
  report: { system: string; value: string };
  /**
   * The DICOM AccessionNumber (issuer unknown here: no system), else the one generated for the
   * ORU's OBR-3 (issued by this installation), so the RIS and a FHIR receiver file one number.
   */
  accession: { value: string; system: string | null };
  studyInstanceUid: string | null;
  /** 'YYYY-MM-DD' from the DICOM StudyDate; null when there is none. */
  studyDate: string | null;
  modality: string | null;
}

/**
 * Identifier systems of this installation, derived from PUBLIC_URL so two installations never
 * share one: `https://host/fhir/sid/patient-profile` and so on.
 */
export function installationSystem(publicUrl: string, kind: string): string {
  return new URL(`/fhir/sid/${kind}`, publicUrl).toString();
}

const text = (v: string | null | undefined): string | null => (v && v.trim() !== '' ? v.trim() : null);

function isoDate(studyDate: string | null): string | null {
  const m = studyDate ? /^(\d{4})(\d{2})(\d{2})$/.exec(studyDate) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** Reads the network record of the analysis, when there is one; the caller has checked access to the analysis. */
export async function loadExportStudy(opts: {
  db: TDb;
  publicUrl: string;
  analysisId: string;
  chatId: string;
  profileId: string | null;
}): Promise<TExportStudy> {
  const { db, publicUrl, analysisId, chatId, profileId } = opts;
  const [row] = await db
    .select({
      tags: dicomInstances.tags,
      studyInstanceUid: dicomInstances.studyInstanceUid,
      modality: dicomInstances.modality,
    })
    .from(dicomInstances)
    .where(eq(dicomInstances.analysisId, analysisId))
    .limit(1);
  const tags: Record<string, string | undefined> = row?.tags ?? {};
  const patientId = text(tags.PatientID);
  return {
    patient: patientId
      ? { kind: 'dicom', system: installationSystem(publicUrl, 'dicom-patient-id'), value: patientId }
      : profileId
        ? { kind: 'profile', system: installationSystem(publicUrl, 'patient-profile'), value: profileId }
        : { kind: 'chat', system: installationSystem(publicUrl, 'chat'), value: chatId },
    report: { system: installationSystem(publicUrl, 'report'), value: analysisId },
    accession: text(tags.AccessionNumber)
      ? { value: text(tags.AccessionNumber)!, system: null }
      : { value: generatedAccession(analysisId), system: installationSystem(publicUrl, 'accession') },
    // The column is written on receipt; the tag is read too, for rows stored the other way.
    studyInstanceUid: text(row?.studyInstanceUid) ?? text(tags.StudyInstanceUID),
    studyDate: isoDate(text(tags.StudyDate)),
    modality: text(row?.modality),
  };
}
