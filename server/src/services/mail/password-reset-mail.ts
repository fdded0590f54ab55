import type { TConfig } from '@contracts/config/server-config.js';
import type { TMail } from './send-mail.js';

/**
 * The reset link is built from the configured PUBLIC_URL, never from the request's Host header:
 * a forged Host would otherwise make us mail the victim a link to the attacker's site.
 */
export function resetLink(config: Pick<TConfig, 'PUBLIC_URL'>, token: string): string {
  return `${config.PUBLIC_URL.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
}

export function passwordResetMail(
  config: Pick<TConfig, 'PUBLIC_URL'>,
  to: string,
  token: string,
  validMinutes: number,
): TMail {
  const link = resetLink(config, token);
  const text = [
    'Someone (hopefully you) asked to reset the password of your Chest Doctor AI account.',
    '',
    `Open this link to choose a new password. It works once and expires in ${validMinutes} minutes:`,
    link,
    '',
    'If you did not ask for this, ignore this email: your password stays as it is.',
  ].join('\n');
  return { to, subject: 'Reset your Chest Doctor AI password', text };
}
