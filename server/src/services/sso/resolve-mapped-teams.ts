import { asc, count, eq, inArray, and } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { teamMembers, teams } from '../../db/schema.js';
import type { TSsoTeamChange, TTeamMembership } from '@contracts/schemas/sso.js';
import type { TCurrentMembership, TResolvedTeam } from './plan-team-sync.js';

/**
 * The teams OIDC_TEAM_MAP's slugs name (teams.slug, unique, so a slug names one team or none). A
 * slug no team has is skipped rather than guessed: an SSO login never creates a team (a site
 * administrator makes it, and becomes its first admin) and never adds anyone to a team it is not
 * sure of.
 */
export async function resolveMappedTeams(opts: {
  db: TDb;
  mapped: readonly TTeamMembership[];
}): Promise<{ resolved: TResolvedTeam[]; skipped: TSsoTeamChange[] }> {
  const resolved: TResolvedTeam[] = [];
  const skipped: TSsoTeamChange[] = [];
  if (!opts.mapped.length) return { resolved, skipped };
  const found = await opts.db
    .select({ id: teams.id, name: teams.name, slug: teams.slug })
    .from(teams)
    .where(
      inArray(
        teams.slug,
        opts.mapped.map((m) => m.team),
      ),
    );
  const bySlug = new Map(found.map((t) => [t.slug, t]));
  for (const m of opts.mapped) {
    const hit = bySlug.get(m.team);
    if (hit) resolved.push({ ...m, teamId: hit.id, teamName: hit.name });
    else
      skipped.push({
        slug: m.team,
        teamId: null,
        teamName: null,
        action: 'skip',
        from: null,
        to: m.role,
        reason: 'missing_team',
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
