import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { Hl7Message } from '@medplum/core';

/**
 * How the peer answers each message:
 * - `ack`: a proper framed AA for the message's control id (a RIS that works);
 * - `close`: closes without answering; `tls`: speaks TLS (a self-signed certificate made by openssl);
 * - `trickle`: a proper ACK, one byte a second; `flood`: VT then 20 MB with no FS;
 * - `wrong-id`: a framed AA whose MSA-2 is another control id; `unframed`: an AA with no VT.
 */
export type TPeerMode = 'ack' | 'close' | 'tls' | 'trickle' | 'flood' | 'wrong-id' | 'unframed';

export interface THostilePeer {
  port: number;
  /** The behaviour for the next connections; switch it between tests. */
  mode: TPeerMode;
  /** Every message received whole, parsed by Hl7Message, with the mode it met. */
  received: { mode: TPeerMode; message: Hl7Message }[];
  /** Connections that saw any bytes from us, by mode (a TLS one never yields a message). */
  connections: Record<TPeerMode, number>;
  close(): Promise<void>;
}

const frame = (text: string) => Buffer.concat([Buffer.from([0x0b]), Buffer.from(text), Buffer.from([0x1c, 0x0d])]);
const ackFor = (controlId: string) =>
  `MSH|^~\\&|RIS|H|CXR|AI|20261129000000||ACK^R01^ACK|P${Date.now()}|P|2.5.1\rMSA|AA|${controlId}`;

/** A throwaway self-signed certificate (openssl), for the peer that expects TLS. */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'ris-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=ris.test',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A real TCP MLLP peer of the test's own that misbehaves on purpose (issue 46). */
export function startHostilePeer(): Promise<THostilePeer> {
  const credentials = selfSigned();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const peer: THostilePeer = {
    port: 0,
    mode: 'ack',
    received: [],
    connections: { ack: 0, close: 0, tls: 0, trickle: 0, flood: 0, 'wrong-id': 0, unframed: 0 },
    close: async () => undefined,
  };
  const answer = (socket: Socket, mode: TPeerMode, message: Hl7Message) => {
    const controlId = message.getSegment('MSH')?.getField(10)?.toString() ?? '';
    if (mode === 'ack') socket.write(frame(ackFor(controlId)));
    else if (mode === 'close') socket.end();
    else if (mode === 'wrong-id') socket.write(frame(ackFor('NOT-YOUR-MESSAGE')));
    else if (mode === 'unframed')
      socket.write(Buffer.concat([Buffer.from(ackFor(controlId)), Buffer.from([0x1c, 0x0d])]));
    else if (mode === 'trickle') {
      const bytes = frame(ackFor(controlId));
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || i >= bytes.length) return clearInterval(timer);
        socket.write(bytes.subarray(i, ++i));
      }, 1000);
      timers.add(timer);
    } else if (mode === 'flood') {
      socket.write(Buffer.from([0x0b]));
      const block = Buffer.alloc(64 * 1024, 0x41);
      let sent = 0;
      const more = () => {
        while (sent < 20 * 1024 * 1024 && !socket.destroyed) {
          sent += block.length;
          if (!socket.write(block)) return void socket.once('drain', more);
        }
      };
      more();
    }
  };
  const server: Server = createServer((raw) => {
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.on('error', () => undefined);
    const mode = peer.mode;
    if (mode === 'tls') {
      peer.connections.tls++;
      const tls = new TLSSocket(raw, { isServer: true, ...credentials });
      tls.on('error', () => undefined);
      return;
    }
    let buf = Buffer.alloc(0);
    raw.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf(0x1c);
      if (end < 0 || buf[end + 1] !== 0x0d) return;
      const message = Hl7Message.parse(buf.subarray(buf.indexOf(0x0b) + 1, end).toString('utf8'));
      buf = buf.subarray(end + 2);
      peer.connections[mode]++;
      peer.received.push({ mode, message });
      answer(raw, mode, message);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      peer.port = (server.address() as { port: number }).port;
      peer.close = () =>
        new Promise((r) => {
          for (const t of timers) clearInterval(t);
          for (const s of sockets) s.destroy();
          server.close(() => r());
        });
      resolve(peer);
    });
  });
}
