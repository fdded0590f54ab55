import { createServer, type Server, type Socket } from 'node:net';
import { normaliseAddress } from './caller-allowed.js';
import { GuardedSocket } from './guarded-socket.js';
import { InstanceBudget } from './instance-budget.js';
import { NodeScp } from './node-scp.js';
import type { TLogLevel, TNodeSettings } from './node-thread-messages.js';
import { abortPdu, PduGuard } from './pdu-guard.js';

/** A connection that was told to close (rejection, release, abort) and has not: destroyed after this. */
const LINGER_MS = 2000;

interface Connection {
  socket: Socket;
  address: string;
  guard: PduGuard;
  scp: NodeScp;
  openedAt: number;
  lastActive: number;
  closingSince: number | null;
  pending: { count: number };
}

export interface TServeOptions {
  settings: TNodeSettings;
  ownerReady(): boolean;
  /** Whether a called AE title other than the node's own is a team's (issue 32). */
  teamAeTitle(ae: string): boolean;
  handOn(bytes: Uint8Array, callingAe: string, calledAe: string, address: string): Promise<number>;
  log(level: TLogLevel, fields: Record<string, unknown>, msg: string): void;
}

/**
 * The node's listening socket (issue 36, S1 and S3). Connections past DICOM_MAX_ASSOCIATIONS in
 * all or DICOM_MAX_ASSOCIATIONS_PER_ADDRESS from one address are closed on arrival, before a byte
 * is read (19,900 idle connections had used up the process's file descriptors). Every byte passes
 * the PDU guard before the library sees it. A connection without an answered association after
 * DICOM_ARTIM_TIMEOUT_MS is closed; one with nothing sent either way for DICOM_IDLE_TIMEOUT_MS and
 * no C-STORE being answered is aborted. Refusals over the caps are logged as one count a sweep.
 */
export function serveConnections(opts: TServeOptions): { server: Server; close(): void } {
  const { settings, log } = opts;
  const budget = new InstanceBudget(settings.maxBytesInFlight);
  const open = new Set<Connection>();
  const perAddress = new Map<string, number>();
  let overCap = 0;

  const finish = (c: Connection, abort: false | 2 | 6) => {
    if (c.closingSince !== null) return;
    c.closingSince = Date.now();
    if (abort && !c.socket.destroyed) c.socket.write(abortPdu(abort));
    c.socket.end();
  };

  /**
   * A PDU the guard refused ends the connection on its header alone (issue 39, Info): nothing
   * more is read, the A-ABORT goes out, then the socket is destroyed. Ending it gracefully kept
   * reading (and dropping) what the peer still sent until the linger ran out: a header claiming
   * 0xFFFFFFF0 bytes followed by zeros was read for 2.7 s, 2 GB.
   */
  const refuse = (c: Connection, abort: false | 6) => {
    c.closingSince = Date.now();
    c.socket.pause();
    if (abort && !c.socket.destroyed) c.socket.write(abortPdu(abort), () => c.socket.destroy());
    else c.socket.destroy();
  };

  const accept = (socket: Socket) => {
    const address = normaliseAddress(socket.remoteAddress);
    const fromHere = perAddress.get(address) ?? 0;
    if (open.size >= settings.maxAssociations || fromHere >= settings.maxAssociationsPerAddress) {
      overCap += 1;
      socket.destroy();
      return;
    }
    perAddress.set(address, fromHere + 1);
    const now = Date.now();
    const guard = new PduGuard();
    const pending = { count: 0 };
    const facade = new GuardedSocket(socket, () => (c.lastActive = Date.now()));
    const c: Connection = {
      socket,
      address,
      guard,
      pending,
      openedAt: now,
      lastActive: now,
      closingSince: null,
      scp: new NodeScp(facade as unknown as Socket, {
        settings,
        budget,
        guard,
        address,
        pending,
        ownerReady: opts.ownerReady,
        teamAeTitle: opts.teamAeTitle,
        handOn: (bytes, callingAe, calledAe) => opts.handOn(bytes, callingAe, calledAe, address),
        log,
        finish: () => finish(c, false),
      }),
    };
    open.add(c);
    socket.on('data', (chunk: Buffer) => {
      c.lastActive = Date.now();
      const verdict = guard.feed(chunk);
      if (verdict.ok) return void facade.emit('data', chunk);
      if (c.closingSince !== null) return;
      if (!verdict.peerAborted) log('warn', { from: address, why: verdict.reason }, 'connection aborted: bad PDU');
      refuse(c, verdict.peerAborted ? false : 6);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      open.delete(c);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
      c.scp.releaseAll();
    });
    c.scp.on('networkError', () => socket.destroy());
  };

  const sweep = () => {
    const now = Date.now();
    if (overCap > 0) {
      log('warn', { refused: overCap, open: open.size }, 'connections refused: over DICOM_MAX_ASSOCIATIONS');
      overCap = 0;
    }
    for (const c of open) {
      const waiting = c.guard.state === 'awaiting-request' || c.guard.state === 'awaiting-answer';
      if (c.closingSince !== null) {
        if (now - c.closingSince > LINGER_MS) c.socket.destroy();
      } else if (waiting && now - c.openedAt > settings.artimMs) {
        log('warn', { from: c.address }, 'connection closed: no association within DICOM_ARTIM_TIMEOUT_MS');
        finish(c, false);
      } else if (!waiting && c.pending.count === 0 && now - c.lastActive > settings.idleMs) {
        log('info', { from: c.address }, 'association aborted: idle for DICOM_IDLE_TIMEOUT_MS');
        finish(c, 2);
      }
    }
  };
  const timer = setInterval(sweep, Math.max(50, Math.min(1000, settings.artimMs / 4, settings.idleMs / 4)));

  const server = createServer(accept);
  return {
    server,
    close: () => {
      clearInterval(timer);
      server.close();
      for (const c of open) c.socket.destroy();
    },
  };
}
