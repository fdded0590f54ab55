import { asc, eq, sql } from 'drizzle-orm';
import { teamMembers, teams } from '../../db/schema.js';
import type { TDb } from '../../db/client.js';
import { READER_ROLES } from '../data-access/find-owned.js';

/**
 * Where an SSO sign-in lands (issue 41): a radiologist or an admin of a team on that team's
 * worklist, a clinician on the team's patients; someone in no team at the app's root (their
 * personal space). With several teams, one the caller reads for first, then the oldest
 * membership. The address names the team by id only (`space`, which the client switches to).
 */
export async function ssoLanding(opts: { db: TDb; userId: string }): Promise<string> {
  const readerFirst = sql`case when ${teamMembers.role} in ${READER_ROLES} then 0 else 1 end`;
  const [team] = await opts.db
    .select({ id: teamMembers.teamId, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, opts.userId))
    .orderBy(readerFirst, asc(teamMembers.createdAt), asc(teamMembers.teamId))
    .limit(1);
  if (!team) return '/';
  const page = (READER_ROLES as readonly string[]).includes(team.role) ? 'worklist' : 'profiles';
  return `/chat/${page}?space=${team.id}`;
}
