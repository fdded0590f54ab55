import { z } from 'zod';
import { ZStowForwardingList } from './stow-forwarding.js';

/**
 * Settings → Site, "Destinations" (issue 49 item 7): where signed reports and results go (the RIS
 * over HL7 MLLP, the PACS over DICOM), each with a test an IT lead runs before go-live and its
 * last result, and which accounts' and teams' STOW-RS results are forwarded to the PACS.
 */
export const DESTINATION_MESSAGES = {
  notConfigured: (variable: string) => `No destination is configured: set ${variable} and restart the server`,
  hl7Accepted: (code: string) => `Accepted: the RIS answered ACK ${code}`,
  hl7Refused: (code: string) => `Refused: the RIS answered ACK ${code || 'without a code'}`,
  noAck: 'No HL7 ACK came back before the timeout',
  notAck: 'The RIS answered something that is not an HL7 ACK',
  /** A failed MLLP exchange's code (send-mllp.ts MLLP_FAILURE): closed, unframed, too large, another message. */
  exchangeFailed: (code: string) => `No usable HL7 ACK: ${code}`,
  echoOk: 'C-ECHO answered Success',
  echoStatus: (status: string) => `C-ECHO answered status ${status}`,
  rejected: 'The PACS rejected the association (check its AE title and that it knows this node)',
  network: (code: string) => `Network error (${code}): nothing is listening there, or it cannot be reached`,
  timeout: 'No answer before the timeout',
} as const;

/** The obviously-not-a-patient that a test ORU names, so a RIS that files it files nobody real. */
export const TEST_PATIENT = { id: 'CXRAI-TEST-0000', name: 'TEST^DO NOT FILE^CHEST DOCTOR AI' } as const;

export const ZDestinationKind = z.enum(['hl7', 'dicom']);
export type TDestinationKind = z.infer<typeof ZDestinationKind>;

/** One test's outcome, kept in site settings: when, by whom, and in words. */
export const ZDestinationTestResult = z.object({
  ok: z.boolean(),
  at: z.string(),
  by: z.string().nullable(),
  detail: z.string(),
  /** How long the peer took to answer (or to fail), in milliseconds. */
  ms: z.number().int(),
});
export type TDestinationTestResult = z.infer<typeof ZDestinationTestResult>;

export const ZDestination = z.object({
  kind: ZDestinationKind,
  /** 'RIS (HL7 v2 over MLLP)' or 'PACS (DICOM)'. */
  label: z.string(),
  /** The environment variable it is set by (the server's config, not this page). */
  variable: z.string(),
  /** 'host:port' or 'AE@host:port'; null when not configured. */
  address: z.string().nullable(),
  lastTest: ZDestinationTestResult.nullable(),
});
export type TDestination = z.infer<typeof ZDestination>;

export const ZSiteDestinations = z.object({
  destinations: z.array(ZDestination),
  /** This node's calling AE title, which the PACS must know. */
  callingAe: z.string(),
  stowForwarding: ZStowForwardingList,
});
export type TSiteDestinations = z.infer<typeof ZSiteDestinations>;

export const ZDestinationTestInput = z.object({ destination: ZDestinationKind });
export type TDestinationTestInput = z.infer<typeof ZDestinationTestInput>;
