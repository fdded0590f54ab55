import { and, eq } from 'drizzle-orm';
import { teamInvitations, teamMembers, teams, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import {
  INVITATION_VALID_DAYS,
  MAX_PENDING_INVITATIONS,
  MAX_TEAM_MEMBERS,
  TEAM_MESSAGES,
  type TInviteInput,
} from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireTeamRole } from '../data-access/team-role.js';
import { sendMail } from '../mail/send-mail.js';
import { teamInvitationMail } from '../mail/team-invitation-mail.js';
import { countInvitation } from './count-invitation.js';
import { countMembers, countPendingInvitations } from './count-team.js';

/**
 * An admin invites an address with a role: the e-mailed link carries a one-time token (only its
 * hash is stored) valid for 7 days, and only an account with that address can accept it. Mail
 * is limited per recipient address and per inviting account (countInvitation: 429).
 */
export async function inviteMember(
  opts: Pick<AppDeps, 'db' | 'config' | 'log' | 'redis'> & {
    meta: RequestMeta | null;
    userId: string;
    input: TInviteInput;
  },
): Promise<{ invitationId: string }> {
  const { db, userId, input } = opts;
  const teamId = input.teamId;
  await requireTeamRole({ db, userId, teamId, roles: ['admin'] });
  const email = input.email.trim().toLowerCase();
  const [member] = await db
    .select({ id: users.id })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), eq(users.email, email)))
    .limit(1);
  if (member) throw new AppError('CONFLICT', TEAM_MESSAGES.alreadyMember);
  if ((await countMembers({ db, teamId })) >= MAX_TEAM_MEMBERS)
    throw new AppError('CONFLICT', TEAM_MESSAGES.tooManyMembers);
  if ((await countPendingInvitations({ db, teamId })) >= MAX_PENDING_INVITATIONS)
    throw new AppError('CONFLICT', TEAM_MESSAGES.tooManyInvitations);
  const [team] = await db.select({ name: teams.name }).from(teams).where(eq(teams.id, teamId)).limit(1);
  if (!team) throw new AppError('NOT_FOUND', TEAM_MESSAGES.notFound);
  await countInvitation({ ...opts, email });

  const token = newToken();
  const [row] = await db
    .insert(teamInvitations)
    .values({
      teamId,
      email,
      role: input.role,
      tokenHash: hashToken(token),
      invitedBy: userId,
      expiresAt: new Date(Date.now() + INVITATION_VALID_DAYS * 24 * 3600_000),
    })
    .returning({ id: teamInvitations.id });
  if (!row) throw new Error('invitation insert returned no row');
  const mail = teamInvitationMail({
    config: opts.config,
    to: email,
    token,
    teamName: team.name,
    role: input.role,
    validDays: INVITATION_VALID_DAYS,
  });
  try {
    await sendMail({ ...opts, mail });
  } catch (err) {
    // An invitation nobody received must not count against the 50 or linger as pending.
    await db.delete(teamInvitations).where(eq(teamInvitations.id, row.id));
    throw err;
  }
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: userId,
      action: 'team.invite',
      objectType: 'team_invitation',
      objectId: row.id,
      outcome: 'success',
      details: { teamId, role: input.role },
    },
  });
  return { invitationId: row.id };
}
