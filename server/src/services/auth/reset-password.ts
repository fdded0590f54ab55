import { and, eq, gt, isNull } from 'drizzle-orm';
import { passwordResetTokens, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { passwordHasherFor } from '../../lib/password.js';
import { hashToken } from '../../lib/tokens.js';
import { apiKeysRevokedText } from '@contracts/schemas/api-key.js';
import { AUTH_MESSAGES, type TResetPasswordInput } from '@contracts/schemas/auth.js';
import { auditAccount } from './audit-auth.js';
import { authLimits } from './auth-limits.js';
import { findUserById } from './find-user.js';
import { revokeUserApiKeys } from '../api-key/revoke-user-api-keys.js';
import { revokeUserSessions } from './revoke-sessions.js';
import { announceSessionsEnded } from './session-cache.js';
import { assertPasswordLogin } from './assert-password-login.js';

/** The spec's success message, then what happened to the account's API keys when there were any. */
export function resetDoneMessage(done: { apiKeysRevoked: number }): string {
  return done.apiKeysRevoked > 0
    ? `${AUTH_MESSAGES.resetDone} ${apiKeysRevokedText(done.apiKeysRevoked)}`
    : AUTH_MESSAGES.resetDone;
}

type TResetDeps = Pick<AppDeps, 'db' | 'redis' | 'config'>;

/**
 * Sets a new password from a reset link. The token is consumed by a conditional UPDATE (unused
 * and unexpired), so two concurrent uses cannot both pass; then every session of the user ends
 * and every other outstanding link dies with it, and so does every API key (a key minted by an
 * intruder must not survive the reset meant to lock them out). Returns how many keys ended.
 */
export async function resetPassword(
  opts: TResetDeps & { meta: RequestMeta; input: TResetPasswordInput },
): Promise<{ apiKeysRevoked: number }> {
  const { meta, input } = opts;
  const deps: TResetDeps = opts;
  const { db, config } = deps;
  assertPasswordLogin(config);
  await authLimits(deps).countAuthAttempt(meta.ip);
  // Hash first: the slow step must not sit inside the transaction holding row locks.
  const passwordHash = await passwordHasherFor(config).hash(input.password);
  const done = await db.transaction(async (tx) => {
    const now = new Date();
    const [token] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(input.token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!token) return null;
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, token.userId));
    await revokeUserSessions({ db: tx, userId: token.userId });
    const apiKeysRevoked = await revokeUserApiKeys({ db: tx, userId: token.userId });
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, token.userId), isNull(passwordResetTokens.usedAt)));
    return { userId: token.userId, apiKeysRevoked };
  });
  if (!done) {
    await auditAccount({
      db,
      meta,
      userId: null,
      action: 'auth.password_reset',
      outcome: 'failure',
      details: { reason: 'invalid_token' },
    });
    throw new AppError('BAD_REQUEST', AUTH_MESSAGES.resetInvalid);
  }
  const { userId, apiKeysRevoked } = done;
  await announceSessionsEnded({ ...deps, userId });
  await auditAccount({
    db,
    meta,
    userId,
    action: 'auth.password_reset',
    outcome: 'success',
    details: { apiKeysRevoked },
  });
  // Whoever holds the mailbox may sign in again at once, even if guessers had locked the account.
  const user = await findUserById({ db, userId });
  if (user) await authLimits(deps).clearLoginFailures(user.email);
  return { apiKeysRevoked };
}
