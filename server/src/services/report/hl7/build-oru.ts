import type { TReport } from '@contracts/schemas/report.js';

/** What the ORU^R01 says about the patient and the study, from the stored DICOM tags or the chat. */
export interface TOruStudy {
  patientId: string;
  patientName: string;
  accessionNumber: string;
  studyInstanceUid: string;
  studyDate: string;
}

/** HL7 v2 escapes for the delimiters |^~\& (and line ends, which end a segment). */
export function hl7Escape(v: string): string {
  return v
    .replace(/\\/g, '\\E\\')
    .replace(/\|/g, '\\F\\')
    .replace(/\^/g, '\\S\\')
    .replace(/~/g, '\\R\\')
    .replace(/&/g, '\\T\\')
    .replace(/\r?\n|\r/g, ' ');
}

/** YYYYMMDDHHMMSS in UTC, as HL7's DTM. */
export const hl7Time = (d: Date): string => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);

const SECTIONS: [keyof TReport['sections'], string][] = [
  ['examination', 'EXAMINATION'],
  ['comparison', 'COMPARISON'],
  ['findings', 'FINDINGS'],
  ['impression', 'IMPRESSION'],
];

/**
 * The signed report as an HL7 v2.5.1 ORU^R01 (issue 41): OBR with the accession number (filler
 * order number) and the study, one OBX TX line a report line, result status F for the signed
 * report, C once addenda correct it (the addenda follow, each with its signer). Pure; segments
 * end with CR as MLLP carries them.
 */
export function buildOru(opts: {
  report: TReport;
  study: TOruStudy;
  controlId: string;
  sendingApp: string;
  now: Date;
}): string {
  const { report, study, controlId, now } = opts;
  const status = report.status === 'amended' ? 'C' : 'F';
  const e = hl7Escape;
  const lines: string[] = [];
  for (const [key, title] of SECTIONS) {
    lines.push(`${title}:`);
    lines.push(...report.sections[key].split(/\r?\n/));
  }
  for (const a of report.addenda) lines.push(`ADDENDUM (${a.signedBy}, ${a.signedAt}):`, ...a.text.split(/\r?\n/));
  if (report.signedBy) lines.push(`Signed by ${report.signedBy} at ${report.signedAt ?? ''}`);
  const observed = hl7Time(report.signedAt ? new Date(report.signedAt) : now);
  const segments = [
    `MSH|^~\\&|${e(opts.sendingApp)}|CXR_AI|RIS|HOSPITAL|${hl7Time(now)}||ORU^R01^ORU_R01|${e(controlId)}|P|2.5.1`,
    `PID|1||${e(study.patientId)}||${e(study.patientName)}`,
    `OBR|1||${e(study.accessionNumber)}|18748-4^Diagnostic imaging study^LN|||${e(study.studyDate)}|||||||||||||${e(study.studyInstanceUid)}||${observed}||CR|${status}|||||||${e(report.signedBy ?? '')}`,
    ...lines.map(
      (l, i) =>
        `OBX|${i + 1}|TX|18782-3^Radiology Study observation (narrative)^LN|${i + 1}|${e(l)}||||||${status}|||${observed}`,
    ),
  ];
  return segments.join('\r') + '\r';
}
