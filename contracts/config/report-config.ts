import { z } from 'zod';

/** `host:port` of the RIS's HL7 v2 MLLP listener. */
const zHostPort = z.string().transform((v, ctx) => {
  const m = /^(\[[^\]]+\]|[^:@\s]+):(\d{1,5})$/.exec(v.trim());
  const port = Number(m?.[2]);
  if (!m || port < 1 || port > 65535) {
    ctx.addIssue({ code: 'custom', message: 'REPORT_HL7_DESTINATION must be host:port' });
    return z.NEVER;
  }
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
});

/**
 * An HD namespace id (MSH-3..6, PID-3's assigning authority): printable, no HL7 delimiter, at most
 * 20 characters (HL7 v2.5.1's IS length), so it is sent as configured and never needs escaping.
 */
const zHd = (name: string, fallback: string) =>
  z
    .string()
    .trim()
    .regex(/^[\x21-\x7e ]{1,20}$/, `${name} must be 1-20 printable ASCII characters`)
    .refine((v) => !/[|^~\\&]/.test(v), `${name} must not hold | ^ ~ \\ or &`)
    .default(fallback);

/** Where a signed report goes (issue 41, docs/reports.md). Unset: it stays in the app. */
export const reportConfigShape = {
  /** The RIS's MLLP listener for the signed report as HL7 v2.5.1 ORU^R01. */
  REPORT_HL7_DESTINATION: zHostPort.optional(),
  /** One exchange's absolute deadline: connect, send and the ACK, whatever the listener trickles. */
  REPORT_HL7_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Attempts per message (an error ACK, a refused connection or a timeout each count). */
  REPORT_HL7_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  /** The wait before the second attempt; each later one waits twice as long (the queue's backoff). */
  REPORT_HL7_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(5_000),
  /** MSH-3, MSH-4: this installation as the sender (issue 49). */
  REPORT_HL7_SENDING_APP: zHd('REPORT_HL7_SENDING_APP', 'CHEST_DOCTOR_AI'),
  REPORT_HL7_SENDING_FACILITY: zHd('REPORT_HL7_SENDING_FACILITY', 'CXR_AI'),
  /** MSH-5, MSH-6: the RIS as the receiver. */
  REPORT_HL7_RECEIVING_APP: zHd('REPORT_HL7_RECEIVING_APP', 'RIS'),
  REPORT_HL7_RECEIVING_FACILITY: zHd('REPORT_HL7_RECEIVING_FACILITY', 'HOSPITAL'),
  /**
   * PID-3's assigning authority for a DICOM PatientID (the hospital's MRN namespace). A study with
   * no DICOM PatientID is named by this installation's own patient id, under REPORT_HL7_SENDING_APP.
   */
  REPORT_HL7_PATIENT_ID_AUTHORITY: zHd('REPORT_HL7_PATIENT_ID_AUTHORITY', 'HOSPITAL'),
};
