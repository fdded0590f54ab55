import { users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { passwordHasherFor } from '../../lib/password.js';
import { AUTH_MESSAGES, type TAuthUser, type TSignupInput } from '@contracts/schemas/auth.js';
import { auditAccount } from './audit-auth.js';
import { authLimits } from './auth-limits.js';
import { createSession } from './create-session.js';
import { assertPasswordLogin } from './assert-password-login.js';
import { offerDicomOwnerConfirmation } from '../dicom-node/confirm-dicom-owner.js';

type TSignupDeps = Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'>;

/**
 * Creates the account and signs it in (the spec returns a token at signup).
 *
 * An email that already has an account answers 409 "Signup failed. Email might already be in
 * use." The spec's client logs the user straight in after signup, so we cannot answer the same
 * body for both cases; instead the answer costs what a real signup costs (one argon2 hash) and
 * every attempt counts against the per-IP and per-email signup limits before anything is looked
 * up, so nobody can test addresses faster than SIGNUPS_PER_IP_PER_HOUR.
 */
export async function signUp(
  opts: TSignupDeps & { meta: RequestMeta; input: TSignupInput },
): Promise<{ token: string; user: TAuthUser }> {
  const { meta, input } = opts;
  const deps: TSignupDeps = opts;
  const { db, config } = deps;
  assertPasswordLogin(config);
  const limits = authLimits(deps);
  await limits.countAuthAttempt(meta.ip);
  await limits.countSignup(input.email, meta.ip);
  const passwordHash = await passwordHasherFor(config).hash(input.password);
  // The unique index decides, so two racing signups for one email cannot both succeed.
  const [created] = await db
    .insert(users)
    .values({ name: input.name, email: input.email, passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id, name: users.name, email: users.email });
  if (!created) {
    await auditAccount({
      db,
      meta,
      userId: null,
      action: 'auth.signup',
      outcome: 'failure',
      details: { reason: 'email_taken' },
    });
    throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
  }
  const token = await createSession({ db, userId: created.id, meta });
  await auditAccount({ db, meta, userId: created.id, action: 'auth.signup', outcome: 'success' });
  // The DICOM node's owner address proves its mailbox before any study comes (issue 36, S11). Not
  // awaited: the answer must not wait on (or tell about) the mail relay.
  void offerDicomOwnerConfirmation({ ...deps, account: { userId: created.id, email: created.email } });
  return { token, user: created };
}
