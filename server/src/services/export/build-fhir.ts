import { randomUUID } from 'node:crypto';
import type { TReport } from '@contracts/schemas/report.js';
import type { TAnatomy } from '@contracts/schemas/analysis.js';
import type { TExportFinding, TExportReport } from '@contracts/schemas/export.js';
import {
  ctrCaveat,
  ctrNotMeasurableText,
  heartSizeLines,
  noCtrReason,
  notAssessedReason,
} from '../analysis/anatomy-text.js';
import { impressionLead } from '@contracts/finding-story.js';
import { CALL_TEXT, notAssessedText, pct } from './export-text.js';

/**
 * The report as a FHIR R4 `collection` Bundle: a DiagnosticReport (LOINC 36643-5, chest X-ray)
 * whose results are one Observation per finding (probability as valueQuantity, the call as
 * interpretation), the cardiothoracic ratio (model 2+, a ratio with UCUM unit "1") and the
 * candidate findings the model does not assess (no value, data-absent reason "not-performed"),
 * the Patient, the model as a Device, the overlay as Media. References are
 * `urn:uuid:` fullUrls inside the bundle. Status is `preliminary`: an AI output awaiting review.
 */
type TResource = Record<string, unknown> & { resourceType: string; id: string };

const LOINC = 'http://loinc.org';
const SNOMED = 'http://snomed.info/sct';
const UCUM = 'http://unitsofmeasure.org';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const DATA_ABSENT = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';
export const FINDING_SYSTEM = 'urn:chest-doctor-ai:finding';
/** Measurements of the anatomy stage; LOINC has no code for an AI-measured CTR on a radiograph. */
export const MEASUREMENT_SYSTEM = 'urn:chest-doctor-ai:measurement';
export const CTR_CODE = 'cardiothoracic-ratio';

// SNOMED CT concepts for the labels we know; others carry only our own code and the text.
const SNOMED_OF: Record<string, { code: string; display: string }> = {
  pneumonia: { code: '233604007', display: 'Pneumonia' },
  covid19: { code: '840539006', display: 'Disease caused by severe acute respiratory syndrome coronavirus 2' },
};

const INTERPRETATION_OF: Record<TExportFinding['call'], { code: string; display: string }> = {
  positive: { code: 'POS', display: 'Positive' },
  negative: { code: 'NEG', display: 'Negative' },
  uncertain: { code: 'IND', display: 'Indeterminate' },
  // HL7 has no "possible": below 50 % the finding is not called positive, only flagged (the text says so).
  possible: { code: 'IND', display: 'Indeterminate' },
};

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
const ref = (r: TResource) => ({ reference: `urn:uuid:${r.id}` });

function observation(f: TExportFinding, r: TExportReport, patient: TResource, device: TResource): TResource {
  const snomed = SNOMED_OF[f.label];
  return {
    ...observationBase(r, patient, device, {
      coding: [
        { system: FINDING_SYSTEM, code: f.label, display: f.display },
        ...(snomed ? [{ system: SNOMED, ...snomed }] : []),
      ],
      text: f.display,
    }),
    valueQuantity: { value: f.probability, unit: 'probability', system: UCUM, code: '1' },
    interpretation: [{ coding: [{ system: INTERPRETATION, ...INTERPRETATION_OF[f.call] }], text: CALL_TEXT[f.call] }],
    referenceRange: [
      {
        low: { value: f.threshold, system: UCUM, code: '1' },
        text: `Flagged at or above the operating threshold ${pct(f.threshold)}; called positive only from 50%`,
      },
    ],
    ...(findingNotes(f).length ? { note: findingNotes(f).map((text) => ({ text })) } : {}),
  };
}

/** Issue 17: a call decided at a site threshold says so; the clinician's reading sits beside the model's. */
function findingNotes(f: TExportFinding): string[] {
  const notes: string[] = [];
  if (f.modelThreshold !== undefined)
    notes.push(`Site threshold ${f.threshold.toFixed(2)}, model default ${f.modelThreshold.toFixed(2)}`);
  const c = f.clinicianAssessment;
  if (c)
    notes.push(
      `Clinician's assessment: ${c.verdict === 'agree' ? 'agrees with the model' : 'disagrees with the model'}, reads ${c.reading}${c.note ? ` (${c.note})` : ''}`,
    );
  return notes;
}

/** The common head of every Observation of the report. */
function observationBase(
  r: TExportReport,
  patient: TResource,
  device: TResource,
  code: Record<string, unknown>,
): TResource {
  return {
    resourceType: 'Observation',
    id: randomUUID(),
    status: 'preliminary',
    category: [
      {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'imaging', display: 'Imaging' },
        ],
      },
    ],
    code,
    subject: ref(patient),
    effectiveDateTime: r.analysis.createdAt,
    issued: r.analysis.completedAt ?? r.generatedAt,
    device: ref(device),
  };
}

/** The CTR as a dimensionless ratio with its adult-PA upper reference; or, unmeasured, why not. */
function ctrObservation(r: TExportReport, anatomy: TAnatomy, patient: TResource, device: TResource): TResource {
  const base = observationBase(r, patient, device, {
    coding: [{ system: MEASUREMENT_SYSTEM, code: CTR_CODE, display: 'Cardiothoracic ratio' }],
    text: 'Cardiothoracic ratio',
  });
  if (anatomy.ctr === null) {
    return {
      ...base,
      dataAbsentReason: {
        coding: [{ system: DATA_ABSENT, code: 'unknown', display: 'Unknown' }],
        text: `${anatomy.ctrUnreliable ? 'Not measurable' : 'Not measured'}: ${noCtrReason(anatomy)}`,
      },
    };
  }
  return {
    ...base,
    valueQuantity: { value: anatomy.ctr, unit: '1', system: UCUM, code: '1' },
    referenceRange: [
      {
        high: { value: anatomy.ctrReference, unit: '1', system: UCUM, code: '1' },
        text: 'Usual upper reference on an adult PA film',
      },
    ],
    note: [{ text: ctrCaveat(r.patient.age) }],
  };
}

/** A candidate finding this model version does not assess: named, with no value. */
function notAssessedObservation(
  r: TExportReport,
  n: TExportReport['notAssessed'][number],
  patient: TResource,
  device: TResource,
): TResource {
  return {
    ...observationBase(r, patient, device, {
      coding: [{ system: FINDING_SYSTEM, code: n.label, display: n.display }],
      text: n.display,
    }),
    dataAbsentReason: {
      coding: [{ system: DATA_ABSENT, code: 'not-performed', display: 'Not Performed' }],
      text: `Not assessed: ${notAssessedReason(n)}`,
    },
  };
}

/**
 * The patient's previous analysis, referenced from the DiagnosticReport. R4 has no element for a
 * prior study; R5's DiagnosticReport.supportingInfo has one, carried here as its cross-version
 * extension. The earlier report is not in this bundle, so the reference is by its identifier.
 */
export const SUPPORTING_INFO_EXTENSION =
  'http://hl7.org/fhir/5.0/StructureDefinition/extension-DiagnosticReport.supportingInfo';

function priorExtension(prior: { analysisId: string; createdAt: string }): Record<string, unknown> {
  return {
    url: SUPPORTING_INFO_EXTENSION,
    extension: [
      { url: 'type', valueCodeableConcept: { text: 'Prior report' } },
      {
        url: 'reference',
        valueReference: {
          type: 'DiagnosticReport',
          identifier: { system: 'urn:chest-doctor-ai:analysis', value: prior.analysisId },
          display: `Chest X-ray AI analysis of ${prior.createdAt.slice(0, 10)}`,
        },
      },
    ],
  };
}

export function buildFhirBundle(
  r: TExportReport & { prior?: { analysisId: string; createdAt: string } | null },
  signed: TReport | null = null,
): Record<string, unknown> {
  const patient: TResource = { resourceType: 'Patient', id: randomUUID(), name: [{ text: r.patient.name }] };
  const device: TResource = {
    resourceType: 'Device',
    id: randomUUID(),
    deviceName: [{ name: r.model.name, type: 'model-name' }],
    version: [{ value: r.model.version }],
    note: [{ text: `Model card: ${r.model.cardUrl}` }],
  };
  const extra: TResource[] = [];
  if (r.patient.age !== null) {
    extra.push({
      resourceType: 'Observation',
      id: randomUUID(),
      status: 'final',
      code: { coding: [{ system: LOINC, code: '30525-0', display: 'Age' }], text: 'Age' },
      subject: ref(patient),
      valueQuantity: { value: r.patient.age, unit: 'years', system: UCUM, code: 'a' },
    });
  }
  if (r.patient.medicalHistory.length) {
    extra.push({
      resourceType: 'Observation',
      id: randomUUID(),
      status: 'final',
      code: {
        coding: [{ system: LOINC, code: '11329-0', display: 'History of General health Narrative' }],
        text: 'Medical history',
      },
      subject: ref(patient),
      valueString: r.patient.medicalHistory.join('; '),
    });
  }
  const findings = [
    ...r.findings.map((f) => observation(f, r, patient, device)),
    ...(r.gate.accepted && r.anatomy ? [ctrObservation(r, r.anatomy, patient, device)] : []),
    ...(r.gate.accepted ? r.notAssessed.map((n) => notAssessedObservation(r, n, patient, device)) : []),
  ];
  const media: TResource | null = r.heatmap
    ? {
        resourceType: 'Media',
        id: randomUUID(),
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
  const conclusion = [
    r.gate.accepted
      ? `AI output: ${impressionLead(r.findings).replace(/\*\*/g, '')} Requires clinician review.`
      : `Image refused: ${r.gate.reason ?? 'not a usable chest X-ray'}`,
    ...(r.gate.accepted && r.anatomy ? [...heartConclusion(r, r.anatomy)] : []),
    notAssessedText(r) ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  const report: TResource = {
    resourceType: 'DiagnosticReport',
    id: randomUUID(),
    ...(r.prior ? { extension: [priorExtension(r.prior)] } : {}),
    text: {
      status: 'generated',
      div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${escapeXml(conclusion)}</p><p>${escapeXml(r.disclaimer)}</p></div>`,
    },
    identifier: [{ system: 'urn:chest-doctor-ai:analysis', value: r.analysis.id }],
    status: 'preliminary',
    category: [
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'RAD', display: 'Radiology' }] },
    ],
    code: { coding: [{ system: LOINC, code: '36643-5', display: 'XR Chest 2V' }], text: 'Chest X-ray AI analysis' },
    subject: ref(patient),
    // The device drafted and measured; a signed report adds its radiologist (signedReport).
    performer: [ref(device)],
    effectiveDateTime: r.analysis.createdAt,
    issued: r.analysis.completedAt ?? r.generatedAt,
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
  const interpreter = signed ? signedReport(report, signed) : null;
  const entries = [
    report,
    patient,
    device,
    ...(interpreter ? [interpreter] : []),
    ...findings,
    ...extra,
    ...(media ? [media] : []),
  ];
  return {
    resourceType: 'Bundle',
    id: randomUUID(),
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

/**
 * A signed report (issue 41) makes the DiagnosticReport final (amended once addenda correct it),
 * with the signer as resultsInterpreter and the signed text as a presented form. Returns the
 * signer's Practitioner resource, which goes into the bundle.
 */
function signedReport(report: TResource, signed: TReport): TResource {
  const practitioner: TResource = {
    resourceType: 'Practitioner',
    id: randomUUID(),
    name: [{ text: signed.signedBy ?? 'Former member' }],
  };
  const s = signed.sections;
  const text = [
    `EXAMINATION: ${s.examination}`,
    `COMPARISON: ${s.comparison}`,
    `FINDINGS:\n${s.findings}`,
    `IMPRESSION:\n${s.impression}`,
    ...signed.addenda.map((a) => `ADDENDUM (${a.signedBy}, ${a.signedAt}): ${a.text}`),
    `Signed by ${signed.signedBy ?? 'a former member'} at ${signed.signedAt ?? ''}`,
  ].join('\n\n');
  report.status = signed.status === 'amended' ? 'amended' : 'final';
  report.resultsInterpreter = [ref(practitioner)];
  if (signed.signedAt) report.issued = signed.signedAt;
  report.presentedForm = [
    {
      contentType: 'text/plain',
      language: 'en',
      title: 'Signed radiology report',
      data: Buffer.from(text, 'utf8').toString('base64'),
    },
    ...(report.presentedForm as unknown[]),
  ];
  return practitioner;
}
