import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TReceived {
  from: string;
  to: string[];
  /** The message as received, with quoted-printable soft breaks and escapes undone. */
  text: string;
}

/** Undoes quoted-printable (nodemailer wraps long lines such as the reset link). */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * A real SMTP server in the test process: the app delivers to it over TCP exactly as it would to
 * a hospital's relay. Only what is outside the product (the relay) is stood in for.
 */
export async function startInbox(
  /** Refuse every recipient, or those the function picks (one inbox can then serve a refusal test too). */
  opts: { rejectRecipients?: boolean | ((address: string) => boolean) } = {},
): Promise<{ url: string; received: TReceived[]; next(): Promise<TReceived>; close(): Promise<void> }> {
  const received: TReceived[] = [];
  const waiters: ((m: TReceived) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const reject = opts.rejectRecipients;
      if (typeof reject === 'function' ? reject(address.address) : reject)
        callback(new Error(`550 mailbox ${address.address} unavailable`));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail: TReceived = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        };
        const waiter = waiters.shift();
        if (waiter) waiter(mail);
        else received.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next: () => {
      const ready = received.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise<TReceived>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no mail arrived within 5 s')), 5000);
        waiters.push((m) => {
          clearTimeout(timer);
          resolve(m);
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function resetTokenIn(text: string): { link: string; token: string } {
  const m = /(\S+\/reset-password\?token=([A-Za-z0-9_-]+))/.exec(text);
  if (!m?.[1] || !m[2]) throw new Error('no reset link in the message');
  return { link: m[1], token: m[2] };
}
