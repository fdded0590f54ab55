import { and, eq, isNull } from 'drizzle-orm';
import { teamInvitations } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';
import { isUuid } from '../data-access/is-uuid.js';
import { requireTeamRole } from '../data-access/team-role.js';

/**
 * A team admin withdraws a pending invitation (issue 39 S4): its link stops working at once. An
 * accepted, unknown or other team's invitation answers 404 like a missing one.
 */
export async function revokeInvitation(
  opts: Pick<AppDeps, 'db'> & { meta: RequestMeta | null; userId: string; teamId: string; invitationId: string },
): Promise<void> {
  const { db, userId, teamId, invitationId } = opts;
  await requireTeamRole({ db, userId, teamId, roles: ['admin'] });
  if (!isUuid(invitationId)) throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationNotFound);
  const [gone] = await db
    .delete(teamInvitations)
    .where(
      and(eq(teamInvitations.id, invitationId), eq(teamInvitations.teamId, teamId), isNull(teamInvitations.usedAt)),
    )
    .returning({ id: teamInvitations.id });
  if (!gone) throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationNotFound);
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: userId,
      action: 'team.revoke_invitation',
      objectType: 'team_invitation',
      objectId: gone.id,
      outcome: 'success',
      details: { teamId },
    },
  });
}
