import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';
import { isUuid } from '../data-access/is-uuid.js';
import { requireTeamRole } from '../data-access/team-role.js';
import { dropMembership } from './drop-membership.js';
import { lockTeamAdmins } from './lock-team-admins.js';
import { publishMemberRemoved } from './membership-signal.js';

/**
 * An admin removes a member, or a member leaves (memberId is themself). The last admin can do
 * neither. Takes effect on the member's next request whatever they hold (session, cached
 * session, API key): every access check reads membership in its own statement
 * (data-access/find-owned.ts). Their claims on the team's worklist are released, and their open
 * subscriptions on the team's rows are told to end (membership-signal.ts).
 */
export async function removeMember(
  opts: Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'> & {
    meta: RequestMeta | null;
    userId: string;
    teamId: string;
    memberId: string;
  },
): Promise<void> {
  const { db, userId, teamId, memberId } = opts;
  const leaving = memberId === userId;
  await requireTeamRole({ db, userId, teamId, ...(leaving ? {} : { roles: ['admin'] as const }) });
  if (!isUuid(memberId)) throw new AppError('NOT_FOUND', TEAM_MESSAGES.memberNotFound);
  await db.transaction(async (tx) => {
    const now = await lockTeamAdmins({ tx, teamId, userId: memberId });
    if (!now.role) throw new AppError('NOT_FOUND', TEAM_MESSAGES.memberNotFound);
    if (now.role === 'admin' && now.admins <= 1) throw new AppError('CONFLICT', TEAM_MESSAGES.lastAdmin);
    await dropMembership({ tx, teamId, userId: memberId });
  });
  // After the commit: a subscription told to re-check must already see the membership gone.
  await publishMemberRemoved(opts.redis, opts.config.QUEUE_PREFIX, { teamId, userId: memberId }).catch((err: unknown) =>
    opts.log.warn({ err }, 'membership signal not published; subscriptions re-check on their next event'),
  );
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: userId,
      action: leaving ? 'team.leave' : 'team.remove_member',
      objectType: 'user',
      objectId: memberId,
      outcome: 'success',
      details: { teamId },
    },
  });
}
