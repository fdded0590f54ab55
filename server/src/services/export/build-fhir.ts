import type { TAnatomy } from '@contracts/schemas/analysis.js';
import type { TExportReport } from '@contracts/schemas/export.js';
import { impressionLead } from '@contracts/finding-story.js';
import { ctrNotMeasurableText, heartSizeLines, noCtrReason } from '../analysis/anatomy-text.js';
import { notAssessedText } from './export-text.js';
import {
  ANALYSIS_SYSTEM,
  LOINC,
  narrative,
  newId,
  RADIOLOGY,
  ref,
  reportCode,
  UCUM,
  type TResource,
} from './fhir-common.js';
import { ctrObservation, notAssessedObservation, observation, type TObservationContext } from './fhir-observations.js';
import { signedDiagnosticReport, supportingInfo } from './fhir-signed-report.js';
import { accessionIdentifier, imagingStudyResource, patientResource } from './fhir-study.js';
import type { TExportStudy } from './load-export-study.js';

export { FINDING_SYSTEM } from './fhir-common.js';
export { CTR_CODE, MEASUREMENT_SYSTEM } from './fhir-observations.js';
export { SUPPORTING_INFO_EXTENSION } from './fhir-signed-report.js';

/**
 * The report as a FHIR R4 `collection` Bundle (docs/exports-dicom-batch.md). The AI's output is
 * a DiagnosticReport (LOINC 18748-4, `preliminary`) whose results are one Observation per finding
 * (probability as valueQuantity, the call as interpretation), the cardiothoracic ratio (model 2+,
 * a ratio with UCUM unit "1") and the candidates the model does not assess (no value, data-absent
 * reason "not-performed"), with the overlay as Media; a Provenance names the model's Device as
 * their author (R4's DiagnosticReport.performer cannot be a Device). Once the radiologist signs
 * (issue 49), the signed DiagnosticReport comes first and is the report: its conclusion, text and
 * conclusionCode are what was signed, and the AI's report is only referenced from it. Patient,
 * accession and ImagingStudy identify the study (issue 49). References are `urn:uuid:` fullUrls.
 */
type TExportForFhir = TExportReport & {
  prior?: { analysisId: string; createdAt: string } | null;
  study?: TExportStudy;
};

/** The patient's previous analysis, referenced by its identifier (it is not in this bundle). */
function priorExtension(prior: { analysisId: string; createdAt: string }): Record<string, unknown> {
  return supportingInfo('Prior report', {
    type: 'DiagnosticReport',
    identifier: { system: ANALYSIS_SYSTEM, value: prior.analysisId },
    display: `Chest X-ray AI analysis of ${prior.createdAt.slice(0, 10)}`,
  });
}

function patientObservations(r: TExportReport, patient: TResource): TResource[] {
  const out: TResource[] = [];
  if (r.patient.age !== null) {
    out.push({
      resourceType: 'Observation',
      id: newId(),
      status: 'final',
      code: { coding: [{ system: LOINC, code: '30525-0', display: 'Age' }], text: 'Age' },
      subject: ref(patient),
      valueQuantity: { value: r.patient.age, unit: 'years', system: UCUM, code: 'a' },
    });
  }
  if (r.patient.medicalHistory.length) {
    out.push({
      resourceType: 'Observation',
      id: newId(),
      status: 'final',
      code: {
        coding: [{ system: LOINC, code: '11329-0', display: 'History of General health Narrative' }],
        text: 'Medical history',
      },
      subject: ref(patient),
      valueString: r.patient.medicalHistory.join('; '),
    });
  }
  return out;
}

/** The AI's conclusion, labelled as the AI's; after signing it also names what the signer left out. */
function aiConclusion(r: TExportReport): string {
  const removed = r.report.signed?.removed ?? [];
  return [
    r.gate.accepted
      ? `AI output: ${impressionLead(r.findings).replace(/\*\*/g, '')} Requires clinician review.`
      : `Image refused: ${r.gate.reason ?? 'not a usable chest X-ray'}`,
    ...(r.gate.accepted && r.anatomy ? heartConclusion(r, r.anatomy) : []),
    notAssessedText(r) ?? '',
    removed.length ? `Not stated in the signed report: ${removed.map((f) => f.display).join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export function buildFhirBundle(r: TExportForFhir): Record<string, unknown> {
  const {
    study,
    report: { signed },
  } = r;
  const patient = patientResource(r, study);
  const device: TResource = {
    resourceType: 'Device',
    id: newId(),
    deviceName: [{ name: r.model.name, type: 'model-name' }],
    version: [{ value: r.model.version }],
    note: [{ text: `Model card: ${r.model.cardUrl}` }],
  };
  const imagingStudy = imagingStudyResource(study, patient);
  const removed = new Set(signed?.removed.map((f) => f.label));
  const c: TObservationContext = { r, patient, device };
  const findings = [
    ...r.findings.map((f) => observation(f, c, removed.has(f.label))),
    ...(r.gate.accepted && r.anatomy ? [ctrObservation(c, r.anatomy)] : []),
    ...(r.gate.accepted ? r.notAssessed.map((n) => notAssessedObservation(c, n)) : []),
  ];
  const media: TResource | null = r.heatmap
    ? {
        resourceType: 'Media',
        id: newId(),
        status: 'completed',
        subject: ref(patient),
        device: ref(device),
        content: {
          contentType: r.heatmap.mediaType,
          data: r.heatmap.dataBase64,
          title: 'Explanation overlay (heatmap)',
        },
      }
    : null;
  const conclusion = aiConclusion(r);
  const extensions = r.prior ? [priorExtension(r.prior)] : [];
  const aiReport: TResource = {
    resourceType: 'DiagnosticReport',
    id: newId(),
    // Before signing the AI's report is the bundle's report and carries the prior; after, the signed one does.
    ...(!signed && extensions.length ? { extension: extensions } : {}),
    text: narrative([conclusion, r.disclaimer]),
    identifier: [{ system: ANALYSIS_SYSTEM, value: r.analysis.id }, ...(signed ? [] : accessionIdentifier(study))],
    status: 'preliminary',
    category: RADIOLOGY,
    code: reportCode('Chest X-ray AI analysis'),
    subject: ref(patient),
    effectiveDateTime: r.analysis.createdAt,
    issued: r.analysis.completedAt ?? r.generatedAt,
    ...(imagingStudy ? { imagingStudy: [ref(imagingStudy)] } : {}),
    result: findings.map(ref),
    ...(media ? { media: [{ comment: 'Explanation overlay', link: ref(media) }] } : {}),
    conclusion: `${conclusion} ${r.disclaimer}`,
    presentedForm: [
      {
        contentType: 'text/markdown',
        language: 'en',
        title: 'AI report',
        data: Buffer.from(r.report.text, 'utf8').toString('base64'),
      },
    ],
  };
  // The device is the author of everything it output: R4 says so with a Provenance, not a performer.
  const provenance: TResource = {
    resourceType: 'Provenance',
    id: newId(),
    target: [aiReport, ...findings, ...(media ? [media] : [])].map(ref),
    recorded: r.analysis.completedAt ?? r.generatedAt,
    agent: [
      {
        type: {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/provenance-participant-type',
              code: 'author',
              display: 'Author',
            },
          ],
        },
        who: ref(device),
      },
    ],
  };
  const signedReport = signed
    ? signedDiagnosticReport({ r, signed, study, patient, imagingStudy, aiReport, extensions })
    : null;
  const entries = [
    ...(signedReport ? [signedReport.report] : []),
    aiReport,
    patient,
    ...(imagingStudy ? [imagingStudy] : []),
    device,
    ...(signedReport ? [signedReport.practitioner] : []),
    provenance,
    ...findings,
    ...patientObservations(r, patient),
    ...(media ? [media] : []),
  ];
  return {
    resourceType: 'Bundle',
    id: newId(),
    meta: { lastUpdated: r.generatedAt, tag: [{ system: 'urn:chest-doctor-ai:schema', code: r.schema }] },
    type: 'collection',
    timestamp: r.generatedAt,
    entry: entries.map((resource) => ({ fullUrl: `urn:uuid:${resource.id}`, resource })),
  };
}

/** The conclusion's heart-size sentences: a called cardiomegaly in the reader's words, the CTR on its projection, or why there is none. */
function heartConclusion(r: TExportReport, anatomy: TAnatomy): string[] {
  const flagged = ctrNotMeasurableText(anatomy);
  if (flagged) return [`${flagged}.`];
  const lines = heartSizeLines(anatomy, r.patient.age, r) ?? [];
  if (anatomy.ctr === null) return [`No cardiothoracic ratio: ${noCtrReason(anatomy)}.`];
  // Without the caveat (the CTR observation carries it as its note).
  return lines.slice(0, -1);
}
