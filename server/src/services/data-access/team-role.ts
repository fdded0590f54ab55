import { and, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { teamMembers } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { TEAM_MESSAGES, type TTeamRole } from '@contracts/schemas/team.js';
import { isUuid } from './is-uuid.js';

/**
 * userId's role in teamId, checked before a team's list is read, a row is made in the team or the
 * team is managed. Not a member (or a malformed id) answers NOT_FOUND like a team that does not
 * exist; a member without one of `roles` gets FORBIDDEN (they know the team exists).
 */
export async function requireTeamRole(opts: {
  db: TDb;
  userId: string;
  teamId: string;
  roles?: readonly TTeamRole[];
  /** The 403's message for a member without one of `roles` (default: admins only). */
  forbidden?: string;
}): Promise<TTeamRole> {
  const { db, userId, teamId, roles } = opts;
  if (!isUuid(teamId)) throw new AppError('NOT_FOUND', TEAM_MESSAGES.notFound);
  const [row] = await db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', TEAM_MESSAGES.notFound);
  if (roles && !roles.includes(row.role)) throw new AppError('FORBIDDEN', opts.forbidden ?? TEAM_MESSAGES.adminOnly);
  return row.role;
}

/**
 * The space a list reads or a new row goes to: null (the personal space) or a team userId
 * belongs to (else NOT_FOUND). Returned so the caller writes it into the row.
 */
export async function resolveSpace(opts: { db: TDb; userId: string; teamId?: string | null }): Promise<string | null> {
  const { db, userId, teamId } = opts;
  if (!teamId) return null;
  await requireTeamRole({ db, userId, teamId });
  return teamId;
}
