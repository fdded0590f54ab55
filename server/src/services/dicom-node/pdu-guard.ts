/** PDU types of the DICOM upper layer (PS3.8 9.3). */
export const PduType = {
  AssociateRq: 1,
  AssociateAc: 2,
  AssociateRj: 3,
  PData: 4,
  ReleaseRq: 5,
  ReleaseRp: 6,
  Abort: 7,
} as const;

/** The largest P-DATA-TF the node offers (dcmjs-dimse's default, announced in the A-ASSOCIATE-AC). */
export const NODE_MAX_PDU_LENGTH = 262_144;
const HEADER = 6;

/** Where the association stands, as far as the bytes on the wire go. */
export type TGuardState = 'awaiting-request' | 'awaiting-answer' | 'established' | 'releasing' | 'closed';

export type TGuardVerdict = { ok: true } | { ok: false; reason: string; peerAborted?: boolean };

/**
 * Reads the PDU headers of a connection's bytes before dcmjs-dimse sees them (issue 36, S1 and
 * the Info item). The library collects a whole PDU by concatenating every chunk, with no cap on
 * the length a header claims: one `01 00 FFFFFFF0` held ~470 MB and stalled the event loop. So a
 * PDU longer than what the node offers is refused the moment its 6-byte header arrives, and so is
 * any PDU the association's state does not allow (a release or data before the association is
 * answered, a second request, an AC/RJ sent to an SCP). Only headers are kept: 6 bytes at most.
 */
export class PduGuard {
  private header = Buffer.alloc(0);
  private bodyLeft = 0;
  state: TGuardState = 'awaiting-request';

  constructor(private readonly maxLength = NODE_MAX_PDU_LENGTH) {}

  /** Checks a chunk; a refusal is final (the connection is aborted and closed). */
  feed(chunk: Buffer): TGuardVerdict {
    let at = 0;
    while (at < chunk.length) {
      if (this.state === 'closed') return { ok: false, reason: 'data after the association ended' };
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, chunk.length - at);
        this.bodyLeft -= take;
        at += take;
        continue;
      }
      const need = HEADER - this.header.length;
      this.header = Buffer.concat([this.header, chunk.subarray(at, at + need)]);
      at += Math.min(need, chunk.length - at);
      if (this.header.length < HEADER) break;
      const type = this.header[0]!;
      const length = this.header.readUInt32BE(2);
      this.header = Buffer.alloc(0);
      const verdict = this.admit(type, length);
      if (!verdict.ok) {
        this.state = 'closed';
        return verdict;
      }
      this.bodyLeft = length;
    }
    return { ok: true };
  }

  /** The node answered the request: accepted (data may follow) or rejected (nothing may). */
  answered(accepted: boolean) {
    if (this.state === 'awaiting-answer') this.state = accepted ? 'established' : 'closed';
  }

  private admit(type: number, length: number): TGuardVerdict {
    if (type === PduType.Abort) return { ok: false, reason: 'the peer aborted', peerAborted: true };
    if (length > this.maxLength) return { ok: false, reason: `PDU length ${length} is over ${this.maxLength}` };
    switch (this.state) {
      case 'awaiting-request':
        if (type !== PduType.AssociateRq)
          return { ok: false, reason: `PDU type ${type} before an association request` };
        this.state = 'awaiting-answer';
        return { ok: true };
      case 'awaiting-answer':
        return { ok: false, reason: `PDU type ${type} before the association was answered` };
      case 'established':
        if (type === PduType.PData) return { ok: true };
        if (type === PduType.ReleaseRq) {
          this.state = 'releasing';
          return { ok: true };
        }
        return { ok: false, reason: `PDU type ${type} in an established association` };
      case 'releasing':
      case 'closed':
        return { ok: false, reason: `PDU type ${type} after the release request` };
    }
  }
}

/** A-ABORT from the service provider (source 2) with a reason (PS3.8 9.3.8): 2 unexpected PDU, 6 invalid value. */
export function abortPdu(reason: 2 | 6 = 2): Buffer {
  return Buffer.from([PduType.Abort, 0, 0, 0, 0, 4, 0, 0, 2, reason]);
}
