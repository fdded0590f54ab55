import { and, eq, exists, gt, isNull } from 'drizzle-orm';
import { teamInvitations, teamMembers, teams } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken } from '../../lib/tokens.js';
import { MAX_TEAM_MEMBERS, TEAM_MESSAGES, type TTeam } from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';
import { countMembers } from './count-team.js';
import { voidInvitations } from './void-invitations.js';

/**
 * Accepts an invitation: the token must be unused and unexpired, and the signed-in account must
 * have the invited address (a forwarded link is useless to anyone else, and is not spent by
 * them). Its inviter must still be an admin of the team (issue 39 S4: a removed or demoted admin's
 * invitations made admins). The token is spent in the same statement that checks all of it, so
 * two tabs join once and a demotion in between cannot be missed. Joining voids the address's
 * other pending invitations to the team.
 */
export async function joinTeam(
  opts: Pick<AppDeps, 'db'> & { meta: RequestMeta | null; userId: string; email: string; token: string },
): Promise<TTeam> {
  const { db, userId } = opts;
  const tokenHash = hashToken(opts.token);
  const live = and(
    eq(teamInvitations.tokenHash, tokenHash),
    isNull(teamInvitations.usedAt),
    gt(teamInvitations.expiresAt, new Date()),
  );
  const inviterIsAdmin = exists(
    db
      .select({ one: teamMembers.userId })
      .from(teamMembers)
      .where(
        and(
          eq(teamMembers.teamId, teamInvitations.teamId),
          eq(teamMembers.userId, teamInvitations.invitedBy),
          eq(teamMembers.role, 'admin'),
        ),
      ),
  );
  const [invitation] = await db
    .select({
      id: teamInvitations.id,
      teamId: teamInvitations.teamId,
      email: teamInvitations.email,
      inviterIsAdmin: inviterIsAdmin.mapWith(Boolean),
    })
    .from(teamInvitations)
    .where(live)
    .limit(1);
  if (!invitation) throw new AppError('BAD_REQUEST', TEAM_MESSAGES.invitationInvalid);
  if (invitation.email !== opts.email.toLowerCase())
    throw new AppError('FORBIDDEN', TEAM_MESSAGES.invitationOtherAddress);
  if (!invitation.inviterIsAdmin) throw new AppError('BAD_REQUEST', TEAM_MESSAGES.invitationInviterGone);
  if ((await countMembers({ db, teamId: invitation.teamId })) >= MAX_TEAM_MEMBERS)
    throw new AppError('CONFLICT', TEAM_MESSAGES.tooManyMembers);

  const joined = await db.transaction(async (tx) => {
    const [spent] = await tx
      .update(teamInvitations)
      .set({ usedAt: new Date() })
      .where(and(eq(teamInvitations.id, invitation.id), live, inviterIsAdmin))
      .returning({ role: teamInvitations.role });
    if (!spent) return null;
    // Already a member (invited twice): the link is spent and the role they have stays.
    await tx.insert(teamMembers).values({ teamId: invitation.teamId, userId, role: spent.role }).onConflictDoNothing();
    await voidInvitations({ tx, teamId: invitation.teamId, userId });
    const [team] = await tx
      .select({ id: teams.id, name: teams.name, aeTitle: teams.aeTitle, role: teamMembers.role })
      .from(teams)
      .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId)))
      .where(eq(teams.id, invitation.teamId));
    return team ?? null;
  });
  if (!joined) throw new AppError('BAD_REQUEST', TEAM_MESSAGES.invitationInvalid);
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: userId,
      action: 'team.join',
      objectType: 'team',
      objectId: joined.id,
      outcome: 'success',
      details: { teamId: joined.id, role: joined.role },
    },
  });
  return joined;
}
