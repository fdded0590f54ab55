import type { TDb } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { API_KEY_MESSAGES } from '@contracts/schemas/api-key.js';
import type { TAuth } from '../auth/resolve-session.js';
import { resolveSpace } from '../data-access/team-role.js';

/**
 * The team a STOW-RS request files into (issue 32): the team of the team key used, or null for
 * a personal key. A team key is the team's, made by an admin, but it acts through its creator:
 * it files only while the creator is still a member (any role may add studies to a team, as any
 * member may upload; resolveSpace is the same check as a web upload's). A removed creator's key
 * is refused with 403 and a message saying what to do, and changes nothing.
 */
export async function requireKeyTeam(opts: { db: TDb; auth: TAuth }): Promise<string | null> {
  const { db, auth } = opts;
  if (!auth.keyTeamId) return null;
  try {
    return await resolveSpace({ db, userId: auth.userId, teamId: auth.keyTeamId });
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND')
      throw new AppError('FORBIDDEN', API_KEY_MESSAGES.teamCreatorGone);
    throw err;
  }
}
