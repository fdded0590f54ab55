import { Hl7Context, Hl7Field, Hl7Message, Hl7Segment } from '@medplum/core';
import type { TReport } from '@contracts/schemas/report.js';
import type { TPersonName } from '../split-person-name.js';
import { hl7Escape } from './hl7-escape.js';

/** What the ORU^R01 says about the patient and the study, from the stored DICOM tags or the chat. */
export interface TOruStudy {
  /** PID-3 (CX): the id, its assigning authority and its type ('MR' a hospital MRN, 'PI' this installation's). */
  patientId: { id: string; authority: string; type: 'MR' | 'PI' };
  /** PID-5 (XPN), as components. */
  patientName: TPersonName;
  /** OBR-3: the DICOM accession number, else one generated for the study (ACCESSION_PREFIX). */
  accessionNumber: string;
  /** OBR-20: the stored Study Instance UID; '' for a browser upload, which has none. */
  studyInstanceUid: string;
  studyDate: string;
}

/** MSH-3..6 (config REPORT_HL7_SENDING_*, REPORT_HL7_RECEIVING_*). */
export interface TOruParties {
  sendingApp: string;
  sendingFacility: string;
  receivingApp: string;
  receivingFacility: string;
}

/** YYYYMMDDHHMMSS in UTC, as HL7's DTM. */
export const hl7Time = (d: Date): string => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);

const SECTIONS: [keyof TReport['sections'], string][] = [
  ['examination', 'EXAMINATION'],
  ['comparison', 'COMPARISON'],
  ['findings', 'FINDINGS'],
  ['impression', 'IMPRESSION'],
];

const ctx = new Hl7Context();
/** A field of escaped components: data never becomes a delimiter. */
const field = (...components: string[]) => new Hl7Field([components.map(hl7Escape)], ctx);
/** A field written as is: only for the encoding characters and fixed codes with intended separators. */
const raw = (value: string) => new Hl7Field([[value]], ctx);
/** A segment from its fields in order (index 1 = field 1); missing ones are empty. */
const segment = (name: string, fields: Record<number, Hl7Field>): Hl7Segment => {
  const last = Math.max(...Object.keys(fields).map(Number));
  const all = [raw(name)];
  for (let i = 1; i <= last; i++) all.push(fields[i] ?? raw(''));
  return new Hl7Segment(all, ctx);
};

/** XPN: Family^Given^Middle^Suffix^Prefix (HL7's order; DICOM puts the prefix before the suffix). */
const xpn = (n: TPersonName) => field(n.family, n.given, n.middle, n.suffix, n.prefix);

/**
 * The signed report as an HL7 v2.5.1 ORU^R01 (issues 41, 46, 49), an `@medplum/core` Hl7Message:
 * MSH-3..6 configured, MSH-10 the delivery's control id (the same on every retry); PID-3 the
 * patient id with its assigning authority, PID-5 the name as XPN components; OBR-3 the
 * accession number, OBR-20 the Study Instance UID, OBR-32 the signer (NDL: `&Family&Given`, the
 * signer's name whole in the family name);
 * one OBX TX line a report line, result status F for the signed report, C once addenda correct it
 * (the addenda follow, each with its signer). Every value is escaped (hl7Escape). Pure.
 */
export function buildOru(opts: {
  report: TReport;
  study: TOruStudy;
  parties: TOruParties;
  signer: TPersonName;
  controlId: string;
  now: Date;
}): Hl7Message {
  const { report, study, parties, controlId, now } = opts;
  const status = report.status === 'amended' ? 'C' : 'F';
  const lines: string[] = [];
  for (const [key, title] of SECTIONS) {
    lines.push(`${title}:`);
    lines.push(...report.sections[key].split(/\r?\n|\r/));
  }
  for (const a of report.addenda) lines.push(`ADDENDUM (${a.signedBy}, ${a.signedAt}):`, ...a.text.split(/\r?\n|\r/));
  if (report.signedBy) lines.push(`Signed by ${report.signedBy} at ${report.signedAt ?? ''}`);
  const observed = hl7Time(report.signedAt ? new Date(report.signedAt) : now);
  const interpreter = new Hl7Field([[['', opts.signer.family, opts.signer.given].map(hl7Escape).join('&')]], ctx);
  return new Hl7Message(
    [
      segment('MSH', {
        1: raw(ctx.getMsh2()),
        2: field(parties.sendingApp),
        3: field(parties.sendingFacility),
        4: field(parties.receivingApp),
        5: field(parties.receivingFacility),
        6: raw(hl7Time(now)),
        8: raw('ORU^R01^ORU_R01'),
        9: field(controlId),
        10: raw('P'),
        11: raw('2.5.1'),
      }),
      segment('PID', {
        1: raw('1'),
        3: field(study.patientId.id, '', '', study.patientId.authority, study.patientId.type),
        5: xpn(study.patientName),
      }),
      segment('OBR', {
        1: raw('1'),
        3: field(study.accessionNumber),
        4: raw('18748-4^Diagnostic imaging study^LN'),
        7: field(study.studyDate),
        20: field(study.studyInstanceUid),
        22: raw(observed),
        24: raw('CR'),
        25: raw(status),
        32: interpreter,
      }),
      ...lines.map((l, i) =>
        segment('OBX', {
          1: raw(String(i + 1)),
          2: raw('TX'),
          3: raw('18782-3^Radiology Study observation (narrative)^LN'),
          4: raw(String(i + 1)),
          5: field(l),
          11: raw(status),
          14: raw(observed),
        }),
      ),
    ],
    ctx,
  );
}
