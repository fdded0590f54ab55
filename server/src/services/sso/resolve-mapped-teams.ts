import { asc, count, eq, inArray, and } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { teamMembers, teams } from '../../db/schema.js';
import type { TSsoTeamChange, TTeamMembership } from '@contracts/schemas/sso.js';
import type { TCurrentMembership, TResolvedTeam } from './plan-team-sync.js';
import { teamSlug } from './team-slug.js';

/**
 * The teams OIDC_TEAM_MAP's slugs name. A slug no team has, or more than one has, is skipped
 * rather than guessed: an SSO login never creates a team (a team is made by a person, who becomes
 * its first admin) and never adds anyone to a team it is not sure of.
 */
export async function resolveMappedTeams(opts: {
  db: TDb;
  mapped: readonly TTeamMembership[];
}): Promise<{ resolved: TResolvedTeam[]; skipped: TSsoTeamChange[] }> {
  const resolved: TResolvedTeam[] = [];
  const skipped: TSsoTeamChange[] = [];
  if (!opts.mapped.length) return { resolved, skipped };
  // Names are free text, so the slug is computed here; a site has tens of teams, not thousands.
  const all = await opts.db.select({ id: teams.id, name: teams.name }).from(teams).orderBy(asc(teams.createdAt));
  for (const m of opts.mapped) {
    const hits = all.filter((t) => teamSlug(t.name) === m.team);
    const [hit] = hits;
    if (hits.length === 1 && hit) resolved.push({ ...m, teamId: hit.id, teamName: hit.name });
    else
      skipped.push({
        slug: m.team,
        teamId: null,
        teamName: null,
        action: 'skip',
        from: null,
        to: m.role,
        reason: hits.length ? 'ambiguous_team' : 'missing_team',
      });
  }
  return { resolved, skipped };
}

/** userId's memberships with each team's admin count (the last-admin rule needs it). */
export async function loadMemberships(opts: { db: TDb; userId: string }): Promise<TCurrentMembership[]> {
  const { db, userId } = opts;
  const rows = await db
    .select({ teamId: teamMembers.teamId, teamName: teams.name, role: teamMembers.role, source: teamMembers.source })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teams.name));
  if (!rows.length) return [];
  const admins = await db
    .select({ teamId: teamMembers.teamId, n: count() })
    .from(teamMembers)
    .where(
      and(
        inArray(
          teamMembers.teamId,
          rows.map((r) => r.teamId),
        ),
        eq(teamMembers.role, 'admin'),
      ),
    )
    .groupBy(teamMembers.teamId);
  const adminsOf = new Map(admins.map((a) => [a.teamId, a.n]));
  return rows.map((r) => ({ ...r, admins: adminsOf.get(r.teamId) ?? 0 }));
}
