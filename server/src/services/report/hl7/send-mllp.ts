import { OperationOutcomeError, type Hl7Message } from '@medplum/core';
import { Hl7Client, type Hl7Connection } from '@medplum/hl7';

const VT = 0x0b;

/** A reply larger than this is no ACK (issue 46 M1): the attempt ends instead of buffering it. */
export const MAX_REPLY_BYTES = 64 * 1024;

/**
 * Why an exchange failed, in words that hold no patient data and never the peer's text (they
 * are stored on the delivery row and shown in the report panel): a network error's code
 * (ECONNREFUSED…) or one of these.
 */
export const MLLP_FAILURE = {
  deadline: 'no ACK before the deadline',
  closed: 'closed without an ACK',
  unframed: 'reply not MLLP-framed',
  tooLarge: 'reply larger than 64 KiB',
  otherMessage: 'MSA-2 names another message',
  notAck: 'reply not an ACK',
} as const;

export class MllpFailedError extends Error {
  constructor(readonly code: string) {
    super(`MLLP exchange failed (${code})`);
  }
}

const codeOf = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  // Hl7Client's connect rejections carry no code, only these messages.
  const message = err instanceof Error ? err.message : '';
  if (message.startsWith('Socket closed')) return MLLP_FAILURE.closed;
  if (message.startsWith('Connection timeout')) return MLLP_FAILURE.deadline;
  return MLLP_FAILURE.notAck;
};

/**
 * One HL7 message over MLLP and its ACK (issues 41, 46), with `@medplum/hl7`'s Hl7Client and
 * Hl7Connection: they connect, frame the message (`<VT>…<FS><CR>`), recognise the framed reply,
 * parse it with Hl7Message and match its MSA-2 to our MSH-10. This wraps them for the cases
 * the library leaves open (4.5.2, read in node_modules/@medplum/hl7/dist):
 * - no absolute deadline (the connect timeout is idle time, sendAndWait's starts after connect
 *   and its timer is never cleared): one timer here covers connect, send and ACK, and closes;
 * - a close, end or socket error after connect leaves sendAndWait pending forever: each ends
 *   the attempt here;
 * - the reply is buffered without bound, and a first byte other than VT is dropped unchecked:
 *   a guard ahead of the library's reader ends the attempt on either, reading only the new chunk;
 * - an ACK for another control id is only an 'error' event, and one without MSA-2 is ignored:
 *   each ends the attempt here with its code.
 * A frame is recognised when a chunk ends in FS CR (the library's rule); a reply whose FS and CR
 * arrive apart is not, and the deadline ends that attempt. Resolves with the ACK (any MSA-1: the
 * caller judges it); rejects with MllpFailedError.
 */
export function exchangeMllp(opts: {
  host: string;
  port: number;
  message: Hl7Message;
  deadlineMs: number;
}): Promise<Hl7Message> {
  const { message } = opts;
  const controlId = message.getSegment('MSH')?.getField(10)?.toString() ?? '';
  const client = new Hl7Client({ host: opts.host, port: opts.port, connectTimeout: opts.deadlineMs });
  return new Promise<Hl7Message>((resolve, reject) => {
    let settled = false;
    const finish = (code: string | null, ack?: Hl7Message) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void client.close().catch(() => undefined);
      if (code === null && ack) resolve(ack);
      else reject(new MllpFailedError(code ?? MLLP_FAILURE.notAck));
    };
    const timer = setTimeout(() => finish(MLLP_FAILURE.deadline), opts.deadlineMs);
    client.addEventListener('close', () => finish(MLLP_FAILURE.closed));
    client.addEventListener('error', (event) => {
      // The library's "unknown control id" warning: the 'message' listener below names it.
      if (!(event.error instanceof OperationOutcomeError)) finish(codeOf(event.error));
    });
    const watch = (connection: Hl7Connection) => {
      let bytes = 0;
      connection.socket.prependListener('data', (chunk: Buffer) => {
        if (bytes === 0 && chunk[0] !== VT) finish(MLLP_FAILURE.unframed);
        bytes += chunk.length;
        if (bytes > MAX_REPLY_BYTES) finish(MLLP_FAILURE.tooLarge);
        if (settled) connection.socket.destroy();
      });
      connection.addEventListener('message', (event) => {
        const msa = event.message.getSegment('MSA');
        if (!msa) finish(MLLP_FAILURE.notAck);
        else if (msa.getField(2)?.toString() !== controlId) finish(MLLP_FAILURE.otherMessage);
      });
    };
    client
      .connect()
      .then((connection) => {
        if (settled) return null;
        watch(connection);
        return connection.sendAndWait(message);
      })
      .then(
        (ack) => ack && finish(null, ack),
        (err: unknown) => finish(codeOf(err)),
      );
  });
}

/** MSA-1 of an ACK (upper case), '' when it has none. */
export const ackCodeOf = (ack: Hl7Message): string =>
  ack.getSegment('MSA')?.getField(1)?.toString().toUpperCase() ?? '';
