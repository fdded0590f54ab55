import type { TTeamMapEntry } from '@contracts/config/oidc-config.js';
import type { TTeamMembership } from '@contracts/schemas/sso.js';

/** The claim at a dotted path (`realm_access.roles` for Keycloak's realm roles), else undefined. */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let at: unknown = claims;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The groups an IdP sent: an array of strings, or one string; anything else counts as none. */
export function groupsOf(claims: Record<string, unknown>, groupsClaim: string): string[] {
  const raw = claimAt(claims, groupsClaim);
  if (typeof raw === 'string') return [raw];
  return Array.isArray(raw) ? raw.filter((g): g is string => typeof g === 'string') : [];
}

/**
 * Claims → team memberships, the same at every login and in the site admin's preview. One
 * membership per team: when a person's groups give a team two roles, the entry listed first in
 * OIDC_TEAM_MAP wins, so an operator lists the stronger role first. Group names compare exactly
 * (IdPs treat them as case-sensitive).
 */
export function mapGroupsToTeams(
  claims: Record<string, unknown>,
  settings: { groupsClaim: string; teamMap: readonly TTeamMapEntry[] },
): TTeamMembership[] {
  const groups = new Set(groupsOf(claims, settings.groupsClaim));
  const byTeam = new Map<string, TTeamMembership>();
  for (const { group, team, role } of settings.teamMap) {
    if (groups.has(group) && !byTeam.has(team)) byTeam.set(team, { team, role });
  }
  return [...byTeam.values()];
}
