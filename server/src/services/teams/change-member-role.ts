import { and, eq } from 'drizzle-orm';
import { teamMembers } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { TEAM_MESSAGES, type TTeamRole } from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';
import { isUuid } from '../data-access/is-uuid.js';
import { requireTeamRole } from '../data-access/team-role.js';
import { lockTeamAdmins } from './lock-team-admins.js';

/** An admin changes a member's role; the last admin cannot be demoted (nor demote themself). */
export async function changeMemberRole(
  opts: Pick<AppDeps, 'db'> & {
    meta: RequestMeta | null;
    userId: string;
    teamId: string;
    memberId: string;
    role: TTeamRole;
  },
): Promise<void> {
  const { db, userId, teamId, memberId, role } = opts;
  await requireTeamRole({ db, userId, teamId, roles: ['admin'] });
  if (!isUuid(memberId)) throw new AppError('NOT_FOUND', TEAM_MESSAGES.memberNotFound);
  await db.transaction(async (tx) => {
    const now = await lockTeamAdmins({ tx, teamId, userId: memberId });
    if (!now.role) throw new AppError('NOT_FOUND', TEAM_MESSAGES.memberNotFound);
    if (now.role === 'admin' && role !== 'admin' && now.admins <= 1)
      throw new AppError('CONFLICT', TEAM_MESSAGES.lastAdmin);
    await tx
      .update(teamMembers)
      .set({ role })
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, memberId)));
  });
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: userId,
      action: 'team.role_change',
      objectType: 'user',
      objectId: memberId,
      outcome: 'success',
      details: { teamId, role },
    },
  });
}
