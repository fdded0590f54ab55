import { randomUUID } from 'node:crypto';

/** What every FHIR builder of the export shares: the resource shape, references and code systems. */
export type TResource = Record<string, unknown> & { resourceType: string; id: string };

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const UCUM = 'http://unitsofmeasure.org';
export const V2_0203 = 'http://terminology.hl7.org/CodeSystem/v2-0203';
export const FINDING_SYSTEM = 'urn:chest-doctor-ai:finding';
export const ANALYSIS_SYSTEM = 'urn:chest-doctor-ai:analysis';

/**
 * LOINC 18748-4 "Diagnostic imaging study" (CID 7000's "Diagnostic Imaging Report"), the code the
 * ORU's OBR-4 and the SR's title use too (issue 49): 36643-5 "XR Chest 2V" claimed two views of
 * what is often one film.
 */
export const reportCode = (text: string) => ({
  coding: [{ system: LOINC, code: '18748-4', display: 'Diagnostic imaging study' }],
  text,
});

export const RADIOLOGY = [
  { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'RAD', display: 'Radiology' }] },
];

// SNOMED CT concepts for the labels we know; others carry only our own code and the text.
const SNOMED_OF: Record<string, { code: string; display: string }> = {
  pneumonia: { code: '233604007', display: 'Pneumonia' },
  covid19: { code: '840539006', display: 'Disease caused by severe acute respiratory syndrome coronavirus 2' },
};

/** A finding's codings: our label, and SNOMED CT where we know the concept. */
export function findingCoding(f: { label: string; display: string }): Record<string, string>[] {
  const snomed = SNOMED_OF[f.label];
  return [
    { system: FINDING_SYSTEM, code: f.label, display: f.display },
    ...(snomed ? [{ system: SNOMED, ...snomed }] : []),
  ];
}

export const newId = (): string => randomUUID();
export const ref = (r: TResource) => ({ reference: `urn:uuid:${r.id}` });
export const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An XHTML narrative: paragraphs, line breaks kept. */
export function narrative(paragraphs: string[]): { status: 'generated'; div: string } {
  const body = paragraphs.map((p) => `<p>${escapeXml(p).replace(/\n/g, '<br/>')}</p>`).join('');
  return { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${body}</div>` };
}
