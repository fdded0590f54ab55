import { createServer, type Server } from 'node:net';
import { Hl7Field, Hl7Message, Hl7Segment } from '@medplum/core';
import { hl7Unescape } from '../../server/src/services/report/hl7/hl7-escape.js';

export interface TMllpListener {
  /** The port it listens on (the one asked for, or the one the system chose for 0). */
  port: number;
  /** Every message received, in order (MLLP framing removed), as sent. */
  received: string[];
  /** The same, each parsed by `@medplum/core`'s Hl7Message (a message it cannot parse fails the listener). */
  messages: Hl7Message[];
  close(): Promise<void>;
}

/** One field's first component as a RIS files it: escapes decoded (`\S\` → `^`, `\X1C\` → FS). */
export const hl7Value = (m: Hl7Message, segment: string, field: number, component = 1, nth = 0): string =>
  hl7Unescape(m.getAllSegments(segment)[nth]?.getField(field)?.getComponent(component) ?? '');

/** A received ORU's report text, one OBX-5 a line, unescaped. */
export const oruText = (m: Hl7Message): string =>
  m
    .getAllSegments('OBX')
    .map((s) => hl7Unescape(s.getField(5)?.toString() ?? ''))
    .join('\n');

/**
 * A real MLLP listener on 127.0.0.1:`port` (0: any free port) standing for a RIS: it unframes each
 * message (<VT>…<FS><CR>), parses it with Hl7Message and answers an ACK (built with Hl7Message)
 * whose MSA-1 comes from `codes` in turn (then AA) and MSA-2 the message's MSH-10. MSA-3 carries
 * `ackText`, as some RIS echo the patient there: a test checks that such text never reaches a
 * row, the queue or a log.
 */
export function listenMllp(port: number, codes: string[], ackText = ''): Promise<TMllpListener> {
  const received: string[] = [];
  const messages: Hl7Message[] = [];
  const server: Server = createServer((socket) => {
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf(0x1c);
        if (end < 0 || buf[end + 1] !== 0x0d) return;
        const text = buf.subarray(buf.indexOf(0x0b) + 1, end).toString('utf8');
        buf = buf.subarray(end + 2);
        const message = Hl7Message.parse(text);
        received.push(text);
        messages.push(message);
        const msh = message.getSegment('MSH')!;
        const ack = new Hl7Message([
          new Hl7Segment([
            new Hl7Field([['MSH']]),
            new Hl7Field([['^~\\&']]),
            new Hl7Field([['RIS']]),
            new Hl7Field([['H']]),
            msh.getField(3)!,
            msh.getField(4)!,
            new Hl7Field([['20261129000000']]),
            new Hl7Field([['']]),
            new Hl7Field([['ACK', 'R01', 'ACK']]),
            new Hl7Field([[`A${received.length}`]]),
            new Hl7Field([['P']]),
            new Hl7Field([['2.5.1']]),
          ]),
          new Hl7Segment(['MSA', codes.shift() ?? 'AA', msh.getField(10)!.toString(), ackText]),
        ]);
        socket.write(Buffer.concat([Buffer.from([0x0b]), Buffer.from(ack.toString()), Buffer.from([0x1c, 0x0d])]));
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () =>
      resolve({
        port: (server.address() as { port: number }).port,
        received,
        messages,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    );
  });
}
