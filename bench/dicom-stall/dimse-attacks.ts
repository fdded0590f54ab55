import { connect, type Socket } from 'node:net';
import { pduHeader } from '../../tests/helpers/dicom-pdus.js';

const A_ABORT = 0x07;
const ZEROS = Buffer.alloc(64 * 1024);

export interface THugePduOutcome {
  /** Connections made, over every loop. */
  connections: number;
  /** Of those, how many the node answered with an A-ABORT before closing. */
  aborted: number;
  /**
   * Bytes this side handed to TCP in all (header and zeros) before the node closed: loopback socket
   * buffers take a few MB at once, so this is not what the node read (it stops at the header).
   */
  bytesSent: number;
  /** The most bytes one connection handed to TCP. */
  mostBytesOneConnection: number;
}

/** One connection: an A-ASSOCIATE-RQ header claiming 0xFFFFFFF0 bytes, then zeros as fast as TCP takes them. */
function oneHugePdu(port: number, until: number): Promise<{ aborted: boolean; bytes: number }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let first: number | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ aborted: first === A_ABORT, bytes: socket.bytesWritten });
    };
    socket.on('data', (c: Buffer) => (first ??= c[0]));
    socket.on('error', finish);
    socket.on('close', finish);
    const pump = () => {
      // Until the node closes the connection (or the case ends): as the scan's sender did.
      while (!done && Date.now() < until) if (!socket.write(ZEROS)) return void socket.once('drain', pump);
      if (Date.now() >= until) finish();
    };
    socket.once('connect', () => {
      socket.write(pduHeader(1, 0xfffffff0));
      pump();
    });
  });
}

/**
 * Issue 36, S1: `concurrency` senders, each sending a PDU header claiming 0xFFFFFFF0 bytes and
 * then zeros, reconnecting after `pauseMs` whenever the node closes the connection, for `ms`.
 */
export async function hugePduFlood(opts: {
  port: number;
  concurrency: number;
  ms: number;
  pauseMs: number;
}): Promise<THugePduOutcome> {
  const until = Date.now() + opts.ms;
  const out: THugePduOutcome = { connections: 0, aborted: 0, bytesSent: 0, mostBytesOneConnection: 0 };
  const loop = async () => {
    while (Date.now() < until) {
      const r = await oneHugePdu(opts.port, until);
      out.connections += 1;
      out.aborted += r.aborted ? 1 : 0;
      out.bytesSent += r.bytes;
      out.mostBytesOneConnection = Math.max(out.mostBytesOneConnection, r.bytes);
      await new Promise((res) => setTimeout(res, opts.pauseMs));
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, loop));
  return out;
}

export interface TIdleOutcome {
  attempted: number;
  /** TCP connections the node's listener accepted (connect succeeded). */
  connected: number;
  /** Could not connect at all (refused, or this process out of file descriptors). */
  failedToConnect: number;
  /** Closed by the node within a second of connecting: over DICOM_MAX_ASSOCIATIONS(_PER_ADDRESS). */
  closedOnArrival: number;
  /** Closed by the node later: ARTIM (no association request within DICOM_ARTIM_TIMEOUT_MS). */
  closedLater: number;
  /** Still open when the hold ended. */
  openAtEnd: number;
  /** The most connections open at once on this side. */
  mostOpen: number;
}

/**
 * Issue 36, S3: `count` connections that send nothing, opened `wave` at a time from `addresses`
 * loopback addresses (127.0.0.2 …, so both the per-address and the total cap are met), each held
 * until the node closes it or `holdMs` after the first one opened.
 */
export async function idleConnections(opts: {
  port: number;
  count: number;
  addresses: number;
  wave: number;
  holdMs: number;
}): Promise<TIdleOutcome> {
  const out: TIdleOutcome = {
    attempted: 0,
    connected: 0,
    failedToConnect: 0,
    closedOnArrival: 0,
    closedLater: 0,
    openAtEnd: 0,
    mostOpen: 0,
  };
  const open = new Set<Socket>();
  const started = Date.now();
  const openOne = (i: number) =>
    new Promise<void>((resolve) => {
      out.attempted += 1;
      const a = i % opts.addresses;
      const localAddress = `127.0.${Math.floor(a / 250)}.${2 + (a % 250)}`;
      const socket = connect({ host: '127.0.0.1', port: opts.port, localAddress });
      let connectedAt = 0;
      socket.on('error', () => undefined);
      socket.once('connect', () => {
        connectedAt = Date.now();
        out.connected += 1;
        open.add(socket);
        out.mostOpen = Math.max(out.mostOpen, open.size);
        resolve();
      });
      socket.once('close', () => {
        if (!connectedAt) {
          out.failedToConnect += 1;
          resolve();
          return;
        }
        if (!open.delete(socket)) return; // closed by us at the end
        if (Date.now() - connectedAt < 1000) out.closedOnArrival += 1;
        else out.closedLater += 1;
      });
    });
  for (let i = 0; i < opts.count; i += opts.wave) {
    const n = Math.min(opts.wave, opts.count - i);
    await Promise.all(Array.from({ length: n }, (_, k) => openOne(i + k)));
  }
  await new Promise((r) => setTimeout(r, Math.max(0, started + opts.holdMs - Date.now())));
  out.openAtEnd = open.size;
  const left = [...open];
  open.clear();
  for (const s of left) s.destroy();
  return out;
}
