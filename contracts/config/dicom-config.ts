import { z } from 'zod';
import { MAX_DICOM_BYTES } from '../dicom-limits.js';

/** An AE title: 1-16 characters of the default character repertoire, no backslash (PS3.5 6.2). */
const AE_RE = /^[\x20-\x5b\x5d-\x7e]{1,16}$/;
const zAeTitle = z.string().trim().regex(AE_RE, 'an AE title is 1 to 16 printable characters without a backslash');

export interface TDicomCaller {
  ae: string;
  /** An IP address or host name as the connection reports it; '*' admits any host. */
  host: string;
}

export interface TDicomPeer {
  ae: string;
  host: string;
  port: number;
}

/** `AE@host`, comma-separated: the calling AE titles the node accepts, each from its host. */
const zCallers = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const out: TDicomCaller[] = [];
    for (const entry of v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const at = entry.lastIndexOf('@');
      const ae = entry.slice(0, at);
      const host = entry.slice(at + 1);
      if (at < 1 || !host || !AE_RE.test(ae)) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not AE@host` });
        return z.NEVER;
      }
      out.push({ ae, host: host.toLowerCase() });
    }
    return out;
  });

/** `AE@host:port`: where the results (secondary capture and SR) are sent by C-STORE. */
const zPeer = z.string().transform((v, ctx): TDicomPeer => {
  const m = /^(.{1,16})@(\[[^\]]+\]|[^:@]+):(\d{1,5})$/.exec(v.trim());
  const port = Number(m?.[3]);
  if (!m || !AE_RE.test(m[1]!) || port < 1 || port > 65535) {
    ctx.addIssue({ code: 'custom', message: 'DICOM_DESTINATION must be AE@host:port' });
    return z.NEVER;
  }
  return { ae: m[1]!, host: m[2]!.replace(/^\[|\]$/g, ''), port };
});

/**
 * The DICOM node's settings (docs/dicom-network.md). The node is off unless DICOM_PORT is set;
 * when it is, DICOM_OWNER_EMAIL must be set, and the node takes associations only once that
 * address's account has confirmed it from the mailed link (looked up at boot and every few seconds).
 */
export const dicomConfigShape = {
  DICOM_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  DICOM_BIND: z.string().default('127.0.0.1'),
  DICOM_AE_TITLE: zAeTitle.default('CXR_AI'),
  DICOM_ALLOWED_CALLERS: zCallers,
  DICOM_DESTINATION: zPeer.optional(),
  DICOM_OWNER_EMAIL: z
    .string()
    .trim()
    .transform((v) => v.toLowerCase())
    .optional(),
  /** One instance larger than this is refused (C-STORE status A700, out of resources). */
  DICOM_MAX_INSTANCE_BYTES: z.coerce.number().int().min(1024).default(MAX_DICOM_BYTES),
  /** Past this many C-STOREs in one association the rest are refused until the caller reconnects. */
  DICOM_MAX_INSTANCES_PER_ASSOCIATION: z.coerce.number().int().min(1).default(2000),
  /** Open DIMSE connections in all; one more is closed at once (issue 36, S3). */
  DICOM_MAX_ASSOCIATIONS: z.coerce.number().int().min(1).default(64),
  /** Open DIMSE connections from one address; one more is closed at once. */
  DICOM_MAX_ASSOCIATIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(16),
  /** ARTIM: a connection that has not had its association answered within this is closed (PS3.8 9.1.5). */
  DICOM_ARTIM_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** An association with nothing received or sent for this long, and no C-STORE being answered, is aborted. */
  DICOM_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** Bytes of instances in flight (being received or waiting for their answer) across all associations. */
  DICOM_MAX_BYTES_IN_FLIGHT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(256 * 1024 * 1024),
  /** Tries of one results C-STORE (the first included) before it is marked failed. */
  DICOM_SEND_ATTEMPTS: z.coerce.number().int().min(1).default(6),
  /** The first retry waits this long; each next one twice as long. */
  DICOM_SEND_BACKOFF_MS: z.coerce.number().int().min(1).default(10_000),
  /**
   * STOW-RS requests read at once by one server process; one more is answered 503 at once, before
   * its body is read (issue 36 S7). Each holds at most one part (DICOM_MAX_INSTANCE_BYTES).
   */
  DICOM_STOW_MAX_CONCURRENT: z.coerce.number().int().min(1).default(4),
};
