import { userIdentities, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { auditAccount } from '../auth/audit-auth.js';
import { offerDicomOwnerConfirmation } from '../dicom-node/confirm-dicom-owner.js';

/**
 * Stored as the password hash of an account made by SSO: argon2 cannot parse it, so no password
 * matches it (verify answers false) until the person sets one.
 */
export const NO_PASSWORD = '!sso-only';

function displayName(claims: Record<string, unknown>, email: string): string {
  const name = typeof claims.name === 'string' ? claims.name.trim() : '';
  return (name.length >= 3 ? name : email.slice(0, email.indexOf('@'))).slice(0, 100);
}

/** A new account with its IdP identity (auto-register), in one transaction, audited. */
export async function registerSsoUser(
  opts: Pick<AppDeps, 'db' | 'config' | 'redis' | 'log'> & {
    meta: RequestMeta;
    email: string;
    claims: Record<string, unknown>;
    issuer: string;
    subject: string;
  },
): Promise<{ userId: string; identityId: string }> {
  const { db, meta, email, issuer, subject } = opts;
  const created = await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ name: displayName(opts.claims, email), email, passwordHash: NO_PASSWORD })
      .returning({ id: users.id });
    if (!user) throw new Error('insert returned no user');
    const [identity] = await tx
      .insert(userIdentities)
      .values({ userId: user.id, issuer, subject })
      .returning({ id: userIdentities.id });
    if (!identity) throw new Error('insert returned no identity');
    return { userId: user.id, identityId: identity.id };
  });
  await auditAccount({
    db,
    meta,
    userId: created.userId,
    action: 'auth.sso_register',
    outcome: 'success',
    details: { identityId: created.identityId },
  });
  // A verified IdP address is not proof for the DICOM node: its owner confirms the mailbox (issue 36, S11).
  void offerDicomOwnerConfirmation({ ...opts, account: { userId: created.userId, email } });
  return created;
}
