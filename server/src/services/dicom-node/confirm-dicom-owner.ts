import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { DICOM_OWNER_MESSAGES, type TDicomOwnerState } from '@contracts/schemas/dicom-owner.js';
import { recordAudit } from '../audit/record-audit.js';
import { sendMail } from '../mail/send-mail.js';

/** As the site-admin link: one use, one hour (issue 36, S11). */
export const DICOM_OWNER_LINK_MINUTES = 60;
const keyOf = (prefix: string, token: string) => `${prefix}:dicom-owner-verify:${hashToken(token)}`;

type TAccount = { userId: string; email: string };

/** Whether this address is the one the running node sends its studies to. */
export function isDicomOwnerAddress(config: AppDeps['config'], email: string): boolean {
  return (
    config.DICOM_PORT !== undefined && !!config.DICOM_OWNER_EMAIL && config.DICOM_OWNER_EMAIL === email.toLowerCase()
  );
}

/** The link is built from PUBLIC_URL, never from the request's Host (as the reset link is). */
export function dicomOwnerLink(config: Pick<AppDeps['config'], 'PUBLIC_URL'>, token: string): string {
  return `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/dicom-owner/confirm?token=${encodeURIComponent(token)}`;
}

/** For Settings: is this account the node's owner, and has it confirmed the address? */
export async function dicomOwnerState(
  opts: Pick<AppDeps, 'db' | 'config'> & { account: TAccount },
): Promise<TDicomOwnerState> {
  if (!isDicomOwnerAddress(opts.config, opts.account.email)) return { owner: false, confirmed: false };
  const [row] = await opts.db
    .select({ at: users.dicomOwnerConfirmedAt })
    .from(users)
    .where(eq(users.id, opts.account.userId))
    .limit(1);
  return { owner: true, confirmed: row?.at != null };
}

/** A one-use token for this account and address, stored hashed in Redis for an hour. */
export async function issueDicomOwnerToken(
  opts: Pick<AppDeps, 'config' | 'redis'> & { account: TAccount },
): Promise<string> {
  const token = newToken();
  const claim = JSON.stringify({ userId: opts.account.userId, email: opts.account.email.toLowerCase() });
  await opts.redis.set(keyOf(opts.config.QUEUE_PREFIX, token), claim, 'EX', DICOM_OWNER_LINK_MINUTES * 60);
  return token;
}

async function mailLink(opts: Pick<AppDeps, 'config' | 'redis' | 'log'> & { account: TAccount }): Promise<void> {
  const { config, account } = opts;
  const token = await issueDicomOwnerToken(opts);
  const text = [
    "This address is set as the owner of Chest Doctor AI's DICOM node: the studies the hospital's",
    'PACS sends to it (patient names, IDs and films) go to the account with this address.',
    '',
    `Open this link to confirm that the account is yours. It works once and expires in ${DICOM_OWNER_LINK_MINUTES} minutes:`,
    dicomOwnerLink(config, token),
    '',
    'Until it is confirmed the node accepts no studies. If you did not create this account, do not',
    'open the link: tell the administrator of this server.',
  ].join('\n');
  await sendMail({ ...opts, mail: { to: account.email, subject: 'Confirm the DICOM node owner address', text } });
}

/**
 * Sent when an account is created with DICOM_OWNER_EMAIL (sign-up or SSO): only whoever reads that
 * mailbox can open the link, so a stranger who signs up first with the address receives nothing.
 * Never fails the sign-up: a mail that cannot go is logged, and Settings can send another.
 */
export async function offerDicomOwnerConfirmation(
  opts: Pick<AppDeps, 'config' | 'redis' | 'log'> & { account: TAccount },
): Promise<void> {
  if (!isDicomOwnerAddress(opts.config, opts.account.email)) return;
  await mailLink(opts).catch((err: Error) =>
    opts.log.warn({ err, userId: opts.account.userId }, 'DICOM owner confirmation e-mail not sent'),
  );
}

/** On request from Settings: 403 unless this is the owner's account, 409 once it has confirmed. */
export async function requestDicomOwnerConfirmation(
  opts: Pick<AppDeps, 'db' | 'config' | 'redis' | 'log'> & { account: TAccount },
): Promise<void> {
  const state = await dicomOwnerState(opts);
  if (!state.owner) throw new AppError('FORBIDDEN', DICOM_OWNER_MESSAGES.notOwner);
  if (state.confirmed) throw new AppError('CONFLICT', DICOM_OWNER_MESSAGES.alreadyConfirmed);
  await mailLink(opts);
}

/**
 * Consumes a link (GETDEL: it works once) and marks the account confirmed when its address is
 * still DICOM_OWNER_EMAIL and still the account's. The node's owner watcher sees it within a few
 * seconds. Audited with the account's id, never the address.
 */
export async function confirmDicomOwner(
  opts: Pick<AppDeps, 'db' | 'config' | 'redis'> & { meta: RequestMeta | null; token: string },
): Promise<string> {
  const { db, config, redis, meta, token } = opts;
  const raw = token && token.length <= 200 ? await redis.getdel(keyOf(config.QUEUE_PREFIX, token)) : null;
  const claim = raw ? (JSON.parse(raw) as TAccount) : null;
  if (!claim || !isDicomOwnerAddress(config, claim.email))
    throw new AppError('BAD_REQUEST', DICOM_OWNER_MESSAGES.invalid);
  const [row] = await db
    .update(users)
    .set({ dicomOwnerConfirmedAt: new Date() })
    .where(and(eq(users.id, claim.userId), eq(users.email, claim.email)))
    .returning({ id: users.id });
  if (!row) throw new AppError('BAD_REQUEST', DICOM_OWNER_MESSAGES.invalid);
  await recordAudit({
    db,
    meta,
    entry: {
      actorUserId: row.id,
      action: 'dicom.owner_confirm',
      objectType: 'user',
      objectId: row.id,
      outcome: 'success',
      details: { via: 'verified-email' },
    },
  });
  return row.id;
}
