import { and, eq } from 'drizzle-orm';
import { userIdentities, users } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import type { TTeamMappingPreview } from '@contracts/schemas/sso.js';
import { findUserByEmail } from '../auth/find-user.js';
import { groupsOf } from './map-groups-to-teams.js';
import { planTeamSync } from './plan-team-sync.js';
import { loadMemberships, resolveMappedTeams } from './resolve-mapped-teams.js';
import { mapClaimsToTeams } from './sso-team-rule.js';

/**
 * The site admin's preview: what an SSO login with these claims would do to team memberships,
 * changing nothing. The account is found as the login finds it: by (OIDC_ISSUER, sub), else by
 * e-mail (the account a confirmed link would join); none is a new account. The plan comes from
 * the same functions the login runs (mapClaimsToTeams, planTeamSync), so the two agree.
 */
export async function previewTeamMapping(
  opts: Pick<AppDeps, 'db' | 'config'> & { claims: Record<string, unknown> },
): Promise<TTeamMappingPreview> {
  const { db, config, claims } = opts;
  const { mapped, noRole } = await mapClaimsToTeams({ db, config, claims });
  const groups = groupsOf(claims, config.OIDC_GROUPS_CLAIM);
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  const [byIdentity] =
    sub && config.OIDC_ISSUER
      ? await db
          .select({ userId: userIdentities.userId })
          .from(userIdentities)
          .where(and(eq(userIdentities.issuer, config.OIDC_ISSUER), eq(userIdentities.subject, sub)))
          .limit(1)
      : [];
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  let account: TTeamMappingPreview['account'] = null;
  if (byIdentity) {
    const [u] = await db.select({ email: users.email }).from(users).where(eq(users.id, byIdentity.userId));
    account = { id: byIdentity.userId, email: u?.email ?? '', linkedBy: 'identity' };
  } else if (email) {
    const u = await findUserByEmail({ db, email });
    if (u) account = { id: u.id, email: u.email, linkedBy: 'email' };
  }
  if (noRole) return { account, groups, mapped, refused: 'no_role', changes: [] };
  const { resolved, skipped } = await resolveMappedTeams({ db, mapped });
  const current = account ? await loadMemberships({ db, userId: account.id }) : [];
  const changes = planTeamSync({ current, resolved, skipped, strict: config.OIDC_ROLE_STRICT });
  return { account, groups, mapped, refused: null, changes };
}
