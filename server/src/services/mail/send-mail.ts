import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppDeps } from '../../deps.js';
import { outboxDir, type TConfig } from '@contracts/config/server-config.js';

export interface TMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export type TMailResult = { via: 'smtp'; messageId: string } | { via: 'outbox'; file: string };

// One SMTP transport per configuration, reused across messages.
const transports = new WeakMap<TConfig, Transporter>();

function smtpTransport(config: TConfig & { SMTP_URL: string }): Transporter {
  let t = transports.get(config);
  if (!t) {
    t = nodemailer.createTransport(config.SMTP_URL);
    transports.set(config, t);
  }
  return t;
}

/**
 * Sends through SMTP when SMTP_URL is set. Otherwise (the embedded default, where a laptop has
 * no mail server) the message is written as an .eml file under the outbox directory, which any
 * mail client opens. Logs say where the message went, never to whom: an address is personal data.
 */
export async function sendMail(opts: Pick<AppDeps, 'config' | 'log'> & { mail: TMail }): Promise<TMailResult> {
  const { config, log, mail } = opts;
  const message = { from: config.SMTP_FROM, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html };
  if (config.SMTP_URL) {
    const info = await smtpTransport({ ...config, SMTP_URL: config.SMTP_URL }).sendMail(message);
    log.info({ messageId: info.messageId }, 'email sent over SMTP');
    return { via: 'smtp', messageId: String(info.messageId) };
  }
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await composer.sendMail(message);
  const dir = resolve(outboxDir(config));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = resolve(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`);
  await writeFile(file, info.message as Buffer, { mode: 0o600 });
  log.info({ file }, 'email written to the outbox (set SMTP_URL to deliver mail)');
  return { via: 'outbox', file };
}
