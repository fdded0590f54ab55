import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError, isAppError } from '../../lib/app-error.js';
import { passwordHasherFor } from '../../lib/password.js';
import { AUTH_MESSAGES, type TAuthUser, type TLoginInput } from '@contracts/schemas/auth.js';
import { assertPasswordLogin } from './assert-password-login.js';
import { auditAccount } from './audit-auth.js';
import { authLimits } from './auth-limits.js';
import { createSession } from './create-session.js';
import { findUserByEmail, toAuthUser } from './find-user.js';

type TLoginDeps = Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'>;

/**
 * Checks the password and opens a new session. An unknown email and a wrong password take the
 * same path: one argon2 verification (against a dummy hash when there is no account), one failed
 * attempt counted for that email and IP, and the same 401 body. Only a failure counts against
 * the account (issue 23 N6); every attempt counts against the address first (countAuthAttempt).
 * A 429 from the full argon2 queue is not a failure: nothing was checked.
 */
export async function logIn(
  opts: TLoginDeps & {
    meta: RequestMeta;
    input: TLoginInput;
    /** The one-time password check that links an SSO identity (confirmSsoLink): allowed with PASSWORD_LOGIN=off. */
    linkingSso?: boolean;
  },
): Promise<{ token: string; user: TAuthUser }> {
  const { meta, input } = opts;
  const deps: TLoginDeps = opts;
  const { db, config } = deps;
  if (!opts.linkingSso) assertPasswordLogin(config);
  const limits = authLimits(deps);
  const hasher = passwordHasherFor(config);
  try {
    await limits.countAuthAttempt(meta.ip);
    await limits.assertLoginAllowed(input.email, meta.ip);
  } catch (err) {
    if (isAppError(err) && err.code === 'TOO_MANY_REQUESTS') {
      await auditAccount({
        db,
        meta,
        userId: null,
        action: 'auth.login',
        outcome: 'failure',
        details: { reason: 'rate_limited' },
      });
    }
    throw err;
  }

  const user = await findUserByEmail({ db, email: input.email });
  const ok = user
    ? await hasher.verify(user.passwordHash, input.password)
    : (await hasher.verifyDummy(input.password), false);
  if (!user || !ok) {
    await limits.recordLoginFailure(input.email, meta.ip);
    await auditAccount({
      db,
      meta,
      userId: user?.id ?? null,
      action: 'auth.login',
      outcome: 'failure',
      details: {
        reason: user ? 'wrong_password' : 'unknown_account',
      },
    });
    throw new AppError('UNAUTHORIZED', AUTH_MESSAGES.badCredentials);
  }

  await limits.clearLoginFailures(user.email);
  if (hasher.needsRehash(user.passwordHash)) {
    // The cost settings changed since this hash was made: upgrade it while we hold the password.
    const passwordHash = await hasher.hash(input.password);
    await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
  }
  const token = await createSession({ db, userId: user.id, meta });
  await auditAccount({ db, meta, userId: user.id, action: 'auth.login', outcome: 'success' });
  return { token, user: toAuthUser(user) };
}
