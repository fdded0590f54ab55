import { passwordResetTokens } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import type { TForgotPasswordInput } from '@contracts/schemas/auth.js';
import { passwordResetMail } from '../mail/password-reset-mail.js';
import { sendMail } from '../mail/send-mail.js';
import { auditAccount } from './audit-auth.js';
import { authLimits } from './auth-limits.js';
import { findUserByEmail } from './find-user.js';
import { assertPasswordLogin } from './assert-password-login.js';

export const RESET_TOKEN_TTL_MINUTES = 60;

type TResetDeps = Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'>;

/**
 * Mails a single-use reset link when the email has an account. The caller answers the same
 * whether or not it does, and the mail goes out after the answer (delivery time would otherwise
 * tell an attacker which emails exist). The request is counted per IP and per email first.
 */
export async function requestPasswordReset(
  opts: TResetDeps & { meta: RequestMeta; input: TForgotPasswordInput },
): Promise<void> {
  const { meta, input } = opts;
  const deps: TResetDeps = opts;
  const { db, config, log } = deps;
  assertPasswordLogin(config);
  const limits = authLimits(deps);
  await limits.countAuthAttempt(meta.ip);
  await limits.countResetRequest(input.email, meta.ip);
  const user = await findUserByEmail({ db, email: input.email });
  if (!user) {
    await auditAccount({
      db,
      meta,
      userId: null,
      action: 'auth.password_reset_request',
      outcome: 'failure',
      details: { reason: 'unknown_account' },
    });
    return;
  }
  const token = newToken();
  const now = new Date();
  await db.insert(passwordResetTokens).values({
    userId: user.id,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MINUTES * 60_000),
  });
  await auditAccount({ db, meta, userId: user.id, action: 'auth.password_reset_request', outcome: 'success' });
  const mail = passwordResetMail(config, user.email, token, RESET_TOKEN_TTL_MINUTES);
  sendMail({ ...deps, mail }).catch((err: unknown) => {
    // Not the error itself: SMTP errors quote the rejected recipient address.
    const e = err as { code?: unknown; responseCode?: unknown; command?: unknown };
    log.error(
      { userId: user.id, code: e.code, responseCode: e.responseCode, command: e.command },
      'password reset email could not be sent',
    );
  });
}
