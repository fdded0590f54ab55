import { createServer, type Server } from 'node:net';

export interface TMllpListener {
  /** The port it listens on (the one asked for, or the one the system chose for 0). */
  port: number;
  /** Every message received, in order (MLLP framing removed). */
  received: string[];
  close(): Promise<void>;
}

/**
 * A real MLLP listener on 127.0.0.1:`port` (0: any free port) standing for a RIS: it unframes each
 * message (<VT>…<FS><CR>), keeps it and answers
 * an ACK whose MSA-1 comes from `codes` in turn (then AA). MSA-3 carries `ackText`, as some RIS
 * echo the patient there: a test checks that such text never reaches a row, the queue or a log.
 */
export function listenMllp(port: number, codes: string[], ackText = ''): Promise<TMllpListener> {
  const received: string[] = [];
  const server: Server = createServer((socket) => {
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf(0x1c);
      if (end < 0 || buf[end + 1] !== 0x0d) return;
      const message = buf.subarray(buf.indexOf(0x0b) + 1, end).toString('utf8');
      buf = buf.subarray(end + 2);
      received.push(message);
      const control = message.split('\r')[0]!.split('|')[9];
      const ack = `MSH|^~\\&|RIS|H|CXR|AI|20261129000000||ACK^R01^ACK|A${received.length}|P|2.5.1\rMSA|${codes.shift() ?? 'AA'}|${control}|${ackText}\r`;
      socket.write(Buffer.concat([Buffer.from([0x0b]), Buffer.from(ack), Buffer.from([0x1c, 0x0d])]));
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () =>
      resolve({
        port: (server.address() as { port: number }).port,
        received,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    );
  });
}
