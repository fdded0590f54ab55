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

/** Where a signed report goes (issue 41, docs/reports.md). Unset: it stays in the app. */
export const reportConfigShape = {
  /** The RIS's MLLP listener for the signed report as HL7 v2.5.1 ORU^R01. */
  REPORT_HL7_DESTINATION: zHostPort.optional(),
  /** How long to wait for the listener's ACK before trying again. */
  REPORT_HL7_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Attempts per message (an error ACK, a refused connection or a timeout each count). */
  REPORT_HL7_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  /** The wait before the second attempt; each later one waits twice as long (the queue's backoff). */
  REPORT_HL7_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(5_000),
};
