import type { TConfig } from '@contracts/config/server-config.js';
import type { TMail } from './send-mail.js';

/** Built from PUBLIC_URL, never from the request's Host (see resetLink). */
export function invitationLink(config: Pick<TConfig, 'PUBLIC_URL'>, token: string): string {
  return `${config.PUBLIC_URL.replace(/\/+$/, '')}/teams/join?token=${encodeURIComponent(token)}`;
}

/** The team's name is chosen by its admin, not patient data; the role says what the invitee may do. */
export function teamInvitationMail(opts: {
  config: Pick<TConfig, 'PUBLIC_URL'>;
  to: string;
  token: string;
  teamName: string;
  role: string;
  validDays: number;
}): TMail {
  const text = [
    `You are invited to join the team "${opts.teamName}" on Chest Doctor AI as ${opts.role}.`,
    '',
    `Sign in (or sign up) with this address, then open this link. It works once and expires in ${opts.validDays} days:`,
    invitationLink(opts.config, opts.token),
    '',
    'If you did not expect this, ignore this email.',
  ].join('\n');
  return { to: opts.to, subject: `Join ${opts.teamName} on Chest Doctor AI`, text };
}
