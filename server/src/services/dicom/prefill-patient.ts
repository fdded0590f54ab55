import type { TDicomPatient } from './read-dicom-patient.js';

/** The analysis form's defaults for a field left empty (spec: missing name is 'Unknown'). */
const UNKNOWN_NAME = 'Unknown';

/**
 * Fills the name and age the uploader left empty from the DICOM tags; never overrides what the
 * clinician typed. An age outside the analysis range (1-150, e.g. an infant's 0) stays empty.
 */
export function prefillFromDicom<T extends { full_name: string; age: string }>(
  patient: T,
  dicom: TDicomPatient | undefined,
): T {
  if (!dicom) return patient;
  const name = patient.full_name === UNKNOWN_NAME && dicom.name ? dicom.name : patient.full_name;
  const age =
    patient.age === '' && dicom.age !== null && dicom.age >= 1 && dicom.age <= 150 ? String(dicom.age) : patient.age;
  return { ...patient, full_name: name, age };
}
