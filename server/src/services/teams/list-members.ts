import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { teamInvitations, teamMembers, users } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import type { TTeamMembers } from '@contracts/schemas/team.js';
import { requireTeamRole } from '../data-access/team-role.js';

/**
 * A team's members for any member (a stranger gets NOT_FOUND); its pending invitations only
 * for an admin, who manages them.
 */
export async function listMembers(
  opts: Pick<AppDeps, 'db'> & { userId: string; teamId: string },
): Promise<TTeamMembers> {
  const { db, userId, teamId } = opts;
  const role = await requireTeamRole({ db, userId, teamId });
  const members = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: teamMembers.role,
      joined: teamMembers.createdAt,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(asc(users.name), asc(users.id));
  const invitations =
    role !== 'admin'
      ? []
      : await db
          .select({
            id: teamInvitations.id,
            email: teamInvitations.email,
            role: teamInvitations.role,
            expires: teamInvitations.expiresAt,
          })
          .from(teamInvitations)
          .where(
            and(
              eq(teamInvitations.teamId, teamId),
              isNull(teamInvitations.usedAt),
              gt(teamInvitations.expiresAt, new Date()),
            ),
          )
          .orderBy(asc(teamInvitations.createdAt));
  return {
    members: members.map(({ joined, ...m }) => ({ ...m, joinedAt: joined.toISOString() })),
    invitations: invitations.map(({ expires, ...i }) => ({ ...i, expiresAt: expires.toISOString() })),
  };
}
