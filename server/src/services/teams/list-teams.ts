import { asc, eq } from 'drizzle-orm';
import { teamMembers, teams } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import type { TTeam } from '@contracts/schemas/team.js';

/** The teams userId belongs to, with their role in each (the space switcher's list). */
export async function listTeams(opts: Pick<AppDeps, 'db'> & { userId: string }): Promise<TTeam[]> {
  return opts.db
    .select({ id: teams.id, name: teams.name, role: teamMembers.role, aeTitle: teams.aeTitle })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, opts.userId))
    .orderBy(asc(teams.name), asc(teams.id));
}
