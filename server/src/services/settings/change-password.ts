import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { passwordHasherFor } from '../../lib/password.js';
import { SETTINGS_MESSAGES, type TChangePasswordInput } from '@contracts/schemas/settings.js';
import { auditAccount } from '../auth/audit-auth.js';
import { authLimits } from '../auth/auth-limits.js';
import type { TAuth } from '../auth/resolve-session.js';
import { revokeUserApiKeys } from '../api-key/revoke-user-api-keys.js';
import { revokeUserSessions } from '../auth/revoke-sessions.js';
import { announceSessionsEnded } from '../auth/session-cache.js';
import { confirmPassword } from './confirm-password.js';

const ACTION = 'settings.change_password';

/**
 * Sets a new password after checking the current one. Every other session of the user ends (a
 * password change is what people do when they fear someone else is signed in); this one stays.
 * Every API key ends too, in the same transaction: a key is a credential like a session.
 */
export async function changePassword(
  opts: Pick<AppDeps, 'db' | 'redis' | 'config'> & {
    meta: RequestMeta;
    auth: TAuth & { sessionId: string };
    input: TChangePasswordInput;
  },
): Promise<{ otherSessionsEnded: number; apiKeysRevoked: number }> {
  const { db, redis, config, meta, auth, input } = opts;
  const user = await confirmPassword({
    ...opts,
    password: input.current_password,
    action: ACTION,
    wrongMessage: SETTINGS_MESSAGES.wrongCurrentPassword,
  });
  const passwordHash = await passwordHasherFor(config).hash(input.new_password);
  const { ended, apiKeysRevoked } = await db.transaction(async (tx) => {
    const now = new Date();
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
    return {
      ended: await revokeUserSessions({ db: tx, userId: user.id, keepSessionId: auth.sessionId }),
      apiKeysRevoked: await revokeUserApiKeys({ db: tx, userId: user.id }),
    };
  });
  await announceSessionsEnded({ redis, config, userId: user.id });
  await authLimits({ redis, config }).clearLoginFailures(user.email);

  await auditAccount({
    db,
    meta,
    userId: user.id,
    action: ACTION,
    outcome: 'success',
    details: { otherSessionsEnded: ended, apiKeysRevoked },
  });
  return { otherSessionsEnded: ended, apiKeysRevoked };
}
