import type { TExportReport } from '@contracts/schemas/export.js';
import { newId, ref, V2_0203, type TResource } from './fhir-common.js';
import type { TExportStudy } from './load-export-study.js';

/**
 * What a receiving system files the bundle under (issue 49): the Patient's identifier, the
 * accession number and the ImagingStudy with its Study Instance UID.
 */
const identifierType = (code: string, display: string) => ({ coding: [{ system: V2_0203, code, display }] });

/**
 * The DICOM PatientID is the hospital's record number ("MR"); a browser upload's patient is
 * this installation's own record ("PI", patient internal identifier: the profile, else the chat).
 */
export function patientResource(r: TExportReport, study: TExportStudy | undefined): TResource {
  const p = study?.patient;
  return {
    resourceType: 'Patient',
    id: newId(),
    ...(p
      ? {
          identifier: [
            {
              use: 'usual',
              type:
                p.kind === 'dicom'
                  ? identifierType('MR', 'Medical record number')
                  : identifierType('PI', 'Patient internal identifier'),
              system: p.system,
              value: p.value,
            },
          ],
        }
      : {}),
    name: [{ text: r.patient.name }],
  };
}

/**
 * The accession number as an identifier: the DICOM one without a system (its issuer, the RIS, is
 * not known here), or the one this installation generated for the ORU under its own system.
 */
export function accessionIdentifier(study: TExportStudy | undefined): Record<string, unknown>[] {
  if (!study) return [];
  const { value, system } = study.accession;
  return [{ use: 'usual', type: identifierType('ACSN', 'Accession ID'), ...(system ? { system } : {}), value }];
}

/** The DICOM study the report reads, when the film came with a Study Instance UID; else null. */
export function imagingStudyResource(study: TExportStudy | undefined, patient: TResource): TResource | null {
  if (!study?.studyInstanceUid) return null;
  return {
    resourceType: 'ImagingStudy',
    id: newId(),
    identifier: [
      { system: 'urn:dicom:uid', value: `urn:oid:${study.studyInstanceUid}` },
      ...accessionIdentifier(study),
    ],
    status: 'available',
    ...(study.modality
      ? { modality: [{ system: 'http://dicom.nema.org/resources/ontology/DCM', code: study.modality }] }
      : {}),
    subject: ref(patient),
    ...(study.studyDate ? { started: study.studyDate } : {}),
  };
}
