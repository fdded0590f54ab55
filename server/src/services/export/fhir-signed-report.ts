import type { TExportReport, TExportSigned } from '@contracts/schemas/export.js';
import { impressionLabels } from '../models/impression-labels.js';
import { findingCoding, narrative, newId, RADIOLOGY, ref, reportCode, type TResource } from './fhir-common.js';
import { accessionIdentifier } from './fhir-study.js';
import type { TExportStudy } from './load-export-study.js';
import { signedReportPlain, signedReportText } from './signed-report-text.js';
import { SUMMARY_LABEL } from '../analysis/anatomy-text.js';

/**
 * R4 has no element linking one DiagnosticReport to another; R5's supportingInfo does, carried
 * here as its cross-version extension (the prior report, and the AI's report a signed one read).
 */
export const SUPPORTING_INFO_EXTENSION =
  'http://hl7.org/fhir/5.0/StructureDefinition/extension-DiagnosticReport.supportingInfo';

export function supportingInfo(type: string, reference: Record<string, unknown>): Record<string, unknown> {
  return {
    url: SUPPORTING_INFO_EXTENSION,
    extension: [
      { url: 'type', valueCodeableConcept: { text: type } },
      { url: 'reference', valueReference: reference },
    ],
  };
}

/**
 * `conclusionCode` (issue 49): only the findings the signed impression names as present, by the
 * product's one reading (models/impression-labels.ts); the model's summary score is not a diagnosis.
 */
function conclusionCodes(r: TExportReport, impression: string): Record<string, unknown>[] {
  const candidates = [...r.findings, ...r.notAssessed, ...r.withdrawn].filter((f) => f.label !== SUMMARY_LABEL);
  const unique = candidates.filter((f, i) => candidates.findIndex((g) => g.label === f.label) === i);
  const stated = impressionLabels(impression, unique);
  return unique.filter((f) => stated.has(f.label)).map((f) => ({ coding: findingCoding(f), text: f.display }));
}

/**
 * The radiologist's report as the bundle's main DiagnosticReport (issues 41, 49): final (amended
 * after addenda), the signer as performer and resultsInterpreter, `conclusion` the signed
 * impression, the narrative and the presented form the signed sections and addenda. The AI's
 * report is referenced beside it, never merged into it. Returns it with the signer's Practitioner.
 */
export function signedDiagnosticReport(o: {
  r: TExportReport;
  signed: TExportSigned;
  study: TExportStudy | undefined;
  patient: TResource;
  imagingStudy: TResource | null;
  aiReport: TResource;
  extensions: Record<string, unknown>[];
}): { report: TResource; practitioner: TResource } {
  const { r, signed, study, patient, imagingStudy, aiReport } = o;
  const practitioner: TResource = {
    resourceType: 'Practitioner',
    id: newId(),
    name: [{ text: signed.signedBy ?? 'Former member' }],
  };
  const t = signedReportText(signed);
  const codes = conclusionCodes(r, signed.sections.impression);
  const report: TResource = {
    resourceType: 'DiagnosticReport',
    id: newId(),
    extension: [
      supportingInfo('AI analysis (device output, not part of the signed report)', ref(aiReport)),
      ...o.extensions,
    ],
    text: narrative([t.title, t.signature, ...t.blocks.map(([title, text]) => `${title}\n${text}`)]),
    identifier: [...(study ? [study.report] : []), ...accessionIdentifier(study)],
    status: signed.status,
    category: RADIOLOGY,
    code: reportCode('Chest radiograph report'),
    subject: ref(patient),
    effectiveDateTime: r.analysis.createdAt,
    issued: signed.signedAt,
    performer: [ref(practitioner)],
    resultsInterpreter: [ref(practitioner)],
    ...(imagingStudy ? { imagingStudy: [ref(imagingStudy)] } : {}),
    conclusion: signed.sections.impression,
    ...(codes.length ? { conclusionCode: codes } : {}),
    presentedForm: [
      {
        contentType: 'text/plain; charset=utf-8',
        language: 'en',
        title: 'Signed radiology report',
        data: Buffer.from(signedReportPlain(signed), 'utf8').toString('base64'),
      },
    ],
  };
  return { report, practitioner };
}
