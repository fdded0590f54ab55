import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';

/**
 * What dcmjs-dimse's Scp sees instead of the socket: data reaches it only after the PDU guard has
 * passed the chunk (the caller emits 'data'), and its own socket timeout is ignored because the
 * node runs ARTIM and idle timers of its own (the library's timers never start on a server
 * socket: they wait for a 'connect' event that only client sockets emit).
 */
export class GuardedSocket extends EventEmitter {
  constructor(
    readonly socket: Socket,
    private readonly onWrite: () => void,
  ) {
    super();
    socket.on('error', (err) => this.emit('error', err));
    socket.on('close', () => this.emit('close'));
  }

  get remoteAddress() {
    return this.socket.remoteAddress;
  }

  setTimeout() {
    return this;
  }

  write(bytes: Buffer): boolean {
    if (this.socket.destroyed || this.socket.writableEnded) return false;
    this.onWrite();
    return this.socket.write(bytes);
  }

  end() {
    this.socket.end();
    return this;
  }

  destroy() {
    this.socket.destroy();
    return this;
  }
}
