import type { TAnatomy } from '@contracts/schemas/analysis.js';
import type { TExportFinding, TExportReport } from '@contracts/schemas/export.js';
import { ctrCaveat, noCtrReason, notAssessedReason } from '../analysis/anatomy-text.js';
import { CALL_TEXT, pct } from './export-text.js';
import { findingCoding, newId, ref, UCUM, type TResource } from './fhir-common.js';

/** The model's measurements as Observations, each with the Device that made it (`device`). */
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const DATA_ABSENT = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';
/** Measurements of the anatomy stage; LOINC has no code for an AI-measured CTR on a radiograph. */
export const MEASUREMENT_SYSTEM = 'urn:chest-doctor-ai:measurement';
export const CTR_CODE = 'cardiothoracic-ratio';

const INTERPRETATION_OF: Record<TExportFinding['call'], { code: string; display: string }> = {
  positive: { code: 'POS', display: 'Positive' },
  negative: { code: 'NEG', display: 'Negative' },
  uncertain: { code: 'IND', display: 'Indeterminate' },
  // HL7 has no "possible": below 50 % the finding is not called positive, only flagged (the text says so).
  possible: { code: 'IND', display: 'Indeterminate' },
};

/** Who the Observations are about and what made them. */
export interface TObservationContext {
  r: TExportReport;
  patient: TResource;
  device: TResource;
}

export const REMOVED_NOTE = 'Not stated in the signed report: the radiologist did not report this finding';

export function observation(f: TExportFinding, c: TObservationContext, removed: boolean): TResource {
  const notes = [...(removed ? [REMOVED_NOTE] : []), ...findingNotes(f)];
  return {
    ...observationBase(c, { coding: findingCoding(f), text: f.display }),
    valueQuantity: { value: f.probability, unit: 'probability', system: UCUM, code: '1' },
    interpretation: [{ coding: [{ system: INTERPRETATION, ...INTERPRETATION_OF[f.call] }], text: CALL_TEXT[f.call] }],
    referenceRange: [
      {
        low: { value: f.threshold, system: UCUM, code: '1' },
        text: `Flagged at or above the operating threshold ${pct(f.threshold)}; called positive only from 50%`,
      },
    ],
    ...(notes.length ? { note: notes.map((text) => ({ text })) } : {}),
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

/** The common head of every Observation of the AI's report. */
function observationBase({ r, patient, device }: TObservationContext, code: Record<string, unknown>): TResource {
  return {
    resourceType: 'Observation',
    id: newId(),
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
export function ctrObservation(c: TObservationContext, anatomy: TAnatomy): TResource {
  const base = observationBase(c, {
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
    note: [{ text: ctrCaveat(c.r.patient.age) }],
  };
}

/** A candidate finding this model version does not assess: named, with no value. */
export function notAssessedObservation(c: TObservationContext, n: TExportReport['notAssessed'][number]): TResource {
  return {
    ...observationBase(c, {
      coding: findingCoding({ label: n.label, display: n.display }).slice(0, 1),
      text: n.display,
    }),
    dataAbsentReason: {
      coding: [{ system: DATA_ABSENT, code: 'not-performed', display: 'Not Performed' }],
      text: `Not assessed: ${notAssessedReason(n)}`,
    },
  };
}
