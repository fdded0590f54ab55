import { and, eq } from 'drizzle-orm';
import { userIdentities } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import type { TSsoRefusal, TTeamMembership } from '@contracts/schemas/sso.js';
import { auditAccount } from '../auth/audit-auth.js';
import { syncSsoMemberships } from '../teams/sync-sso-memberships.js';
import type { TSsoClaims } from './exchange-sso-code.js';

/**
 * Settings → Profile → "Link": a signed-in person signed in at the IdP too, so both the account
 * (its session) and the identity (the IdP's answer) are proven and the link needs no e-mail
 * match. An identity that already belongs to another account stays where it is.
 */
export async function linkSsoIdentity(
  opts: Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'> & {
    meta: RequestMeta;
    userId: string;
    found: TSsoClaims;
    mapped: TTeamMembership[];
  },
): Promise<TSsoRefusal | null> {
  const { db, meta, userId, found } = opts;
  const [inserted] = await db
    .insert(userIdentities)
    .values({ userId, issuer: found.issuer, subject: found.subject })
    .onConflictDoNothing()
    .returning({ id: userIdentities.id });
  if (!inserted) {
    const [owner] = await db
      .select({ userId: userIdentities.userId })
      .from(userIdentities)
      .where(and(eq(userIdentities.issuer, found.issuer), eq(userIdentities.subject, found.subject)));
    if (owner?.userId !== userId) {
      await auditAccount({
        db,
        meta,
        userId,
        action: 'auth.sso_link',
        outcome: 'failure',
        details: { reason: 'other' },
      });
      return 'link_other_account';
    }
    return null;
  }
  await auditAccount({
    db,
    meta,
    userId,
    action: 'auth.sso_link',
    outcome: 'success',
    details: { identityId: inserted.id },
  });
  await syncSsoMemberships({ ...opts, mapped: opts.mapped, strict: opts.config.OIDC_ROLE_STRICT });
  return null;
}
