import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { SITE_MESSAGES } from '@contracts/schemas/site.js';
import type { TAuth } from '../auth/resolve-session.js';
import { announceSessionsEnded } from '../auth/session-cache.js';
import { sendMail } from '../mail/send-mail.js';
import { grantSiteAdmin } from './site-admin-role.js';

const VALID_MINUTES = 60;
const keyOf = (prefix: string, token: string) => `${prefix}:site-admin-verify:${hashToken(token)}`;

/** Whether this account may claim the role by proving its address: listed, and not yet an admin. */
export function canClaimSiteAdmin(config: AppDeps['config'], auth: TAuth): boolean {
  return !auth.siteAdmin && config.SITE_ADMIN_EMAILS.includes(auth.email.toLowerCase());
}

/** The link is built from PUBLIC_URL, never from the request's Host (as the reset link is). */
export function adminVerifyLink(config: Pick<AppDeps['config'], 'PUBLIC_URL'>, token: string): string {
  return `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/site/verify-admin?token=${encodeURIComponent(token)}`;
}

/**
 * Sends a one-use link to the signed-in account's own address, through the same mailer as
 * password resets. Only whoever reads that mailbox can open it, so a stranger who signs up first
 * with a listed address gets nothing (issue 23 N3). The token lives hashed in Redis for an hour.
 */
export async function requestAdminVerification(
  opts: Pick<AppDeps, 'config' | 'redis' | 'log'> & { auth: TAuth },
): Promise<void> {
  const { config, auth } = opts;
  if (!canClaimSiteAdmin(config, auth)) throw new AppError('FORBIDDEN', SITE_MESSAGES.notListed);
  const token = await issueAdminVerificationToken(opts);
  const text = [
    'Someone (hopefully you) asked to become a site administrator of Chest Doctor AI with this address.',
    '',
    `Open this link to confirm. It works once and expires in ${VALID_MINUTES} minutes:`,
    adminVerifyLink(config, token),
    '',
    'If you did not ask for this, ignore this email: nothing changes.',
  ].join('\n');
  await sendMail({ ...opts, mail: { to: auth.email, subject: 'Confirm your site administrator address', text } });
}

/** A one-use token for this account and address, stored hashed in Redis for VALID_MINUTES. */
export async function issueAdminVerificationToken(
  opts: Pick<AppDeps, 'config' | 'redis'> & { auth: TAuth },
): Promise<string> {
  const token = newToken();
  const claim = JSON.stringify({ userId: opts.auth.userId, email: opts.auth.email });
  await opts.redis.set(keyOf(opts.config.QUEUE_PREFIX, token), claim, 'EX', VALID_MINUTES * 60);
  return token;
}

/**
 * Consumes a link (GETDEL: it works once) and grants the role if the address is still listed.
 * The sessions of the account are announced so every server sees the role at once.
 */
export async function confirmAdminVerification(
  opts: Pick<AppDeps, 'db' | 'config' | 'redis'> & { meta: RequestMeta; token: string },
): Promise<void> {
  const { db, config, redis, meta, token } = opts;
  const raw = token && token.length <= 200 ? await redis.getdel(keyOf(config.QUEUE_PREFIX, token)) : null;
  const claim = raw ? (JSON.parse(raw) as { userId: string; email: string }) : null;
  if (!claim || !config.SITE_ADMIN_EMAILS.includes(claim.email.toLowerCase()))
    throw new AppError('BAD_REQUEST', SITE_MESSAGES.verifyInvalid);
  const userId = await grantSiteAdmin({ db, meta, email: claim.email, userId: claim.userId, via: 'verified-email' });
  if (!userId) throw new AppError('BAD_REQUEST', SITE_MESSAGES.verifyInvalid);
  await announceSessionsEnded({ redis, config, userId });
}
