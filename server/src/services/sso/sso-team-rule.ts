import type { TConfig } from '@contracts/config/server-config.js';
import type { TDb } from '../../db/client.js';
import type { TTeamMembership } from '@contracts/schemas/sso.js';
import { mapGroupsToTeams } from './map-groups-to-teams.js';
import { resolveMappedTeams } from './resolve-mapped-teams.js';

/**
 * The claims' team memberships and whether strict mode refuses them: the login and the site
 * admin's preview both decide here. "No role" means no mapped team exists here: a group that
 * maps to a team slug nobody created gives no access, so strict mode refuses it too.
 */
export async function mapClaimsToTeams(opts: {
  db: TDb;
  config: TConfig;
  claims: Record<string, unknown>;
}): Promise<{ mapped: TTeamMembership[]; noRole: boolean }> {
  const { config } = opts;
  const mapped = mapGroupsToTeams(opts.claims, {
    groupsClaim: config.OIDC_GROUPS_CLAIM,
    teamMap: config.OIDC_TEAM_MAP,
  });
  if (!config.OIDC_ROLE_STRICT) return { mapped, noRole: false };
  const { resolved } = await resolveMappedTeams({ db: opts.db, mapped });
  return { mapped, noRole: resolved.length === 0 };
}
