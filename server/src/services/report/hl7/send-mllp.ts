import { connect } from 'node:net';

const VT = 0x0b;
const FS = 0x1c;
const CR = 0x0d;

/** What the listener answered: MSA-1 ('AA'/'CA' accept) and, when refused, MSA-3 or ERR's text. */
export interface TAck {
  code: string;
  text: string;
}

/** MSA-1 and MSA-3 of an ACK, or null when it is not one. */
export function parseAck(message: string): TAck | null {
  const msa = message.split(/\r\n?|\n/).find((s) => s.startsWith('MSA|'));
  if (!msa) return null;
  const f = msa.split('|');
  return { code: f[1] ?? '', text: f[3] ?? '' };
}

/**
 * One HL7 message over MLLP (a small client over net.Socket; @medplum/hl7 is not a dependency):
 * <VT>message<FS><CR>, then the listener's framed ACK. Rejects on a refused connection, on no
 * ACK within `timeoutMs`, or on an ACK that is not one.
 */
export function sendMllp(opts: { host: string; port: number; message: string; timeoutMs: number }): Promise<TAck> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: opts.host, port: opts.port });
    let buffer = Buffer.alloc(0);
    const fail = (err: Error) => {
      socket.destroy();
      reject(err);
    };
    socket.setTimeout(opts.timeoutMs, () => fail(new Error('no HL7 ACK before the timeout')));
    socket.on('error', fail);
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from([VT]), Buffer.from(opts.message, 'utf8'), Buffer.from([FS, CR])]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf(FS);
      if (end < 0) return;
      const start = buffer.indexOf(VT);
      const ack = parseAck(buffer.subarray(start + 1, end).toString('utf8'));
      socket.end();
      if (ack) resolve(ack);
      else reject(new Error('the HL7 listener answered something that is not an ACK'));
    });
  });
}
