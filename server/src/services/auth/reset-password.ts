import { and, eq, gt, isNull } from 'drizzle-orm';
import { passwordResetTokens, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { passwordHasherFor } from '../../lib/password.js';
import { hashToken } from '../../lib/tokens.js';
import { AUTH_MESSAGES, type TResetPasswordInput } from '@contracts/schemas/auth.js';
import { auditAccount } from './audit-auth.js';
import { authLimits } from './auth-limits.js';
import { findUserById } from './find-user.js';
import { revokeUserSessions } from './revoke-sessions.js';
import { announceSessionsEnded } from './session-cache.js';

type TResetDeps = Pick<AppDeps, 'db' | 'redis' | 'config'>;

/**
 * Sets a new password from a reset link. The token is consumed by a conditional UPDATE (unused
 * and unexpired), so two concurrent uses cannot both pass; then every session of the user ends
 * and every other outstanding link dies with it.
 */
export async function resetPassword(
  opts: TResetDeps & { meta: RequestMeta; input: TResetPasswordInput },
): Promise<void> {
  const { meta, input } = opts;
  const deps: TResetDeps = opts;
  const { db, config } = deps;
  // Hash first: the slow step must not sit inside the transaction holding row locks.
  const passwordHash = await passwordHasherFor(config).hash(input.password);
  const userId = await db.transaction(async (tx) => {
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
    await revokeUserSessions(tx, token.userId);
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, token.userId), isNull(passwordResetTokens.usedAt)));
    return token.userId;
  });
  if (!userId) {
    await auditAccount(db, meta, 'auth.password_reset', null, 'failure', { reason: 'invalid_token' });
    throw new AppError('BAD_REQUEST', AUTH_MESSAGES.resetInvalid);
  }
  await announceSessionsEnded(deps, { userId });
  await auditAccount(db, meta, 'auth.password_reset', userId, 'success');
  // Whoever holds the mailbox may sign in again at once, even if guessers had locked the account.
  const user = await findUserById({ db, userId });
  if (user) await authLimits(deps).clearLoginFailures(user.email);
}
