import type { AppDeps, RequestMeta } from '../../deps.js';
import { AUTH_MESSAGES } from '@contracts/schemas/auth.js';
import { AppError } from '../../lib/app-error.js';
import { passwordHasherFor } from '../../lib/password.js';
import { auditAccount } from '../auth/audit-auth.js';
import { authLimits } from '../auth/auth-limits.js';
import { findUserById, type TUserWithHash } from '../auth/find-user.js';
import type { TAuth } from '../auth/resolve-session.js';

/**
 * Re-checks the password of a signed-in user before a sensitive change. A wrong one answers
 * 403 WRONG_PASSWORD (not 401, which would log the client out) and counts as a failed login, so
 * a stolen session cannot be used to guess the password faster than the login form allows.
 */
export async function confirmPassword(
  opts: Pick<AppDeps, 'db' | 'redis' | 'config'> & {
    meta: RequestMeta;
    auth: TAuth;
    password: string;
    action: string;
    wrongMessage: string;
  },
): Promise<TUserWithHash> {
  const { db, redis, config, meta, auth } = opts;
  const limits = authLimits({ redis, config });
  await limits.assertLoginAllowed(auth.email, meta.ip);
  const user = await findUserById({ db, userId: auth.userId });
  if (!user) throw new AppError('UNAUTHORIZED', AUTH_MESSAGES.authRequired);
  if (!(await passwordHasherFor(config).verify(user.passwordHash, opts.password))) {
    await limits.recordLoginFailure(user.email, meta.ip);
    await auditAccount({
      db,
      meta,
      userId: user.id,
      action: opts.action,
      outcome: 'failure',
      details: { reason: 'wrong_password' },
    });
    throw new AppError('WRONG_PASSWORD', opts.wrongMessage);
  }
  return user;
}
