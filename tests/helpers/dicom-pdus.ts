import { connect, type Socket } from 'node:net';

const item = (type: number, body: Buffer) => {
  const head = Buffer.alloc(4);
  head.writeUInt8(type, 0);
  head.writeUInt16BE(body.length, 2);
  return Buffer.concat([head, body]);
};
const ae = (title: string) => Buffer.from(title.padEnd(16, ' ').slice(0, 16), 'ascii');

/** An A-ASSOCIATE-RQ for Verification in Implicit VR Little Endian (PS3.8 9.3.2), written by hand. */
export function associateRq(calling: string, called: string): Buffer {
  const maxLength = Buffer.alloc(4);
  maxLength.writeUInt32BE(16384);
  const body = Buffer.concat([
    Buffer.from([0, 1, 0, 0]),
    ae(called),
    ae(calling),
    Buffer.alloc(32),
    item(0x10, Buffer.from('1.2.840.10008.3.1.1.1')),
    item(
      0x20,
      Buffer.concat([
        Buffer.from([1, 0, 0, 0]),
        item(0x30, Buffer.from('1.2.840.10008.1.1')),
        item(0x40, Buffer.from('1.2.840.10008.1.2')),
      ]),
    ),
    item(0x50, Buffer.concat([item(0x51, maxLength), item(0x52, Buffer.from('1.2.3.4'))])),
  ]);
  return Buffer.concat([pduHeader(1, body.length), body]);
}

/** The 6-byte header of a PDU of this type claiming this length. */
export function pduHeader(type: number, length: number): Buffer {
  const h = Buffer.alloc(6);
  h.writeUInt8(type, 0);
  h.writeUInt32BE(length >>> 0, 2);
  return h;
}

export interface TRawPeer {
  socket: Socket;
  /** Every byte the node sent. */
  received(): Buffer;
  /** Resolves when the node closes the connection; rejects after limitMs (a generous give-up, not a timing check). */
  closed(limitMs?: number): Promise<void>;
}

/** A raw TCP connection to the node, optionally from another loopback address (127.0.0.x). */
export async function rawPeer(port: number, localAddress?: string): Promise<TRawPeer> {
  const socket = connect({ host: '127.0.0.1', port, ...(localAddress ? { localAddress } : {}) });
  const chunks: Buffer[] = [];
  let isClosed = false;
  const closing = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closing.then(() => (isClosed = true));
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    received: () => Buffer.concat(chunks),
    closed: (limitMs = 20_000) =>
      isClosed
        ? Promise.resolve()
        : Promise.race([
            closing,
            new Promise<void>((_r, reject) =>
              setTimeout(() => reject(new Error('the node kept the connection open')), limitMs).unref(),
            ),
          ]),
  };
}
