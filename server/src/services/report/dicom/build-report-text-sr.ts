import type { TReportSections } from '@contracts/schemas/report.js';
import { C, declareSchemes, type TCode } from '../../dicom-node/dicom-codes.js';
import { MANUFACTURER } from '../../dicom-node/describe-ai-device.js';
import {
  dicomValue,
  patientAndStudy,
  resultContext,
  type TDataset,
  type TSourceInstance,
} from '../../dicom-node/result-object-base.js';
import { codeItem, containerItem, personItem, textItem, type TItem } from '../../dicom-node/sr-content-items.js';
import { dicomPnOf, wholeName } from '../split-person-name.js';

/**
 * A signer's display name as a PN (issue 46 L2): one component free of `^`, `=` and `\`, so a
 * name such as `A^B=C` is one person's, not extra components or groups ("Too many delimiters").
 */
const signerPn = (name: string): string => dicomPnOf(wholeName(name));

export const BASIC_TEXT_SR_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.88.11';
export const REPORT_SERIES_DESCRIPTION = 'Chest X-ray report';

/** One signature: the signer's name as signed, and when. */
export interface TSignature {
  name: string;
  at: Date;
}

/** A report SR sent earlier that this one replaces (an addendum's predecessor). */
export interface TSrRef {
  seriesInstanceUid: string;
  sopInstanceUid: string;
}

/**
 * Each section as a TID 2000 heading (CID 7001) and the narrative item it holds (CID 7002).
 * COMPARISON reads under "Prior Procedure Descriptions" (PS3.20 maps it to the comparison study
 * section) and names what changed, so its items are findings.
 */
const SECTION_CODES: [keyof TReportSections, TCode, TCode][] = [
  ['examination', C.currentProcedureDescriptions, C.procedureDescription],
  ['comparison', C.priorProcedureDescriptions, C.finding],
  ['findings', C.findings, C.finding],
  ['impression', C.impressions, C.impression],
];

/** DICOM DT of an instant, in UTC (the offset says so). */
const dicomDateTime = (d: Date): string => `${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;

// eslint-disable-next-line no-control-regex -- the control characters UT does not allow are what is removed
const NOT_IN_UT = /[\x00-\x09\x0b-\x1f\x7f]/g;

/** UT keeps line ends; DICOM writes them CR LF. Other control characters go. */
const utText = (s: string): string => s.replace(/\r\n?/g, '\n').replace(NOT_IN_UT, ' ').replace(/\n/g, '\r\n').trim();

const verifier = (organization: string) => (s: TSignature) => ({
  VerifyingObserverName: signerPn(s.name),
  VerifyingObserverIdentificationCodeSequence: [],
  VerifyingOrganization: organization,
  VerificationDateTime: dicomDateTime(s.at),
});

/**
 * The signed report as a DICOM Basic Text SR (issue 41): TID 2000 titled "Diagnostic Imaging
 * Report" (LOINC 18748-4, the CID 7000 title the ORU's OBR-4 also uses; 36643-5 "XR Chest 2V"
 * would claim two views of what is often one film), in the analysed film's study and patient as
 * the AI's SR is, in the report's own series. The radiologist is the observer and the verifying
 * observer (VERIFIED); no device observer or contributing algorithm: the words are theirs, the
 * AI's TID 1500 stays the device's. An amended report carries the full text with its addenda,
 * each signer verifying, and names the SR it replaces in PredecessorDocumentsSequence. Pure.
 */
export function buildReportTextSr(opts: {
  source: TSourceInstance;
  sections: TReportSections;
  signed: TSignature;
  addenda: (TSignature & { text: string })[];
  seriesInstanceUid: string;
  sopInstanceUid: string;
  predecessor: TSrRef | null;
  /** The verifiers' organization (type 1): the reading team's name, when there is one. */
  organization: string | null;
  now: Date;
}): TDataset {
  const { sections, signed, addenda } = opts;
  const ctx = resultContext(opts.source, opts.now);
  const body: TItem[] = [];
  for (const [key, heading, element] of SECTION_CODES) {
    const text = utText(sections[key]);
    if (text) body.push(containerItem('CONTAINS', heading, [textItem('CONTAINS', element, text)]));
  }
  for (const a of addenda) {
    const text = utText(`${a.text}\n(${a.name}, ${a.at.toISOString()})`);
    body.push(containerItem('CONTAINS', C.addendum, [textItem('CONTAINS', C.finding, text)]));
  }
  const root = containerItem(
    null,
    C.diagnosticImagingReport,
    [
      codeItem('HAS CONCEPT MOD', C.language, C.english),
      codeItem('HAS CONCEPT MOD', C.procedureReported, C.chestRadiograph),
      codeItem('HAS OBS CONTEXT', C.observerType, C.person),
      personItem('HAS OBS CONTEXT', C.personObserverName, signerPn(signed.name)),
      ...body,
    ],
    '2000',
  );
  const last = addenda.at(-1) ?? signed;
  const sr: TDataset = {
    ...patientAndStudy(ctx),
    Manufacturer: MANUFACTURER,
    SOPClassUID: BASIC_TEXT_SR_SOP_CLASS,
    SOPInstanceUID: opts.sopInstanceUid,
    InstanceCreationDate: ctx.date,
    InstanceCreationTime: ctx.time,
    Modality: 'SR',
    SeriesInstanceUID: opts.seriesInstanceUid,
    SeriesNumber: '9910',
    SeriesDescription: REPORT_SERIES_DESCRIPTION,
    ReferencedPerformedProcedureStepSequence: [],
    InstanceNumber: String(addenda.length + 1),
    CompletionFlag: 'COMPLETE',
    VerificationFlag: 'VERIFIED',
    VerifyingObserverSequence: [signed, ...addenda].map(
      verifier(dicomValue(opts.organization ?? '', 64) || 'Not recorded'),
    ),
    ContentDate: dicomDateTime(last.at).slice(0, 8),
    ContentTime: dicomDateTime(last.at).slice(8, 14),
    AuthorObserverSequence: [
      {
        ObserverType: 'PSN',
        PersonName: signerPn(signed.name),
        PersonIdentificationCodeSequence: [],
        InstitutionName: dicomValue(opts.organization ?? '', 64),
        InstitutionCodeSequence: [],
      },
    ],
    PerformedProcedureCodeSequence: [],
    CurrentRequestedProcedureEvidenceSequence: [
      {
        StudyInstanceUID: ctx.studyUid,
        ReferencedSeriesSequence: [
          {
            SeriesInstanceUID: dicomValue(opts.source.seriesInstanceUid ?? '', 64) || opts.seriesInstanceUid,
            ReferencedSOPSequence: [ctx.film],
          },
        ],
      },
    ],
    ...(opts.predecessor
      ? {
          PredecessorDocumentsSequence: [
            {
              StudyInstanceUID: ctx.studyUid,
              ReferencedSeriesSequence: [
                {
                  SeriesInstanceUID: opts.predecessor.seriesInstanceUid,
                  ReferencedSOPSequence: [
                    {
                      ReferencedSOPClassUID: BASIC_TEXT_SR_SOP_CLASS,
                      ReferencedSOPInstanceUID: opts.predecessor.sopInstanceUid,
                    },
                  ],
                },
              ],
            },
          ],
        }
      : {}),
    ...root,
  };
  const schemes = declareSchemes(sr);
  return schemes.length ? { ...sr, CodingSchemeIdentificationSequence: schemes } : sr;
}
