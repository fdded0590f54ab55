import type { TDb } from '../../db/client.js';
import { READER_ROLES } from '../data-access/find-owned.js';
import { findStudy, type TStudyRef } from '../data-access/study-access.js';
import { requireTeamRole } from '../data-access/team-role.js';
import type { TTeamRole } from '@contracts/schemas/team.js';
import { WORKLIST_MESSAGES } from '@contracts/schemas/worklist.js';

/**
 * The access check before a claim, a release or a review mark, from the one rule
 * (find-owned.ts, team-role.ts through study-access.ts): a study the caller cannot read is
 * NOT_FOUND, like a missing id; in a team, a member who is not a radiologist or an admin is
 * FORBIDDEN. A study is a network instance or a team's browser upload (issue 49). A personal
 * study is its owner's alone (role null). The write that follows checks the rule again in its
 * own statement (studyClaimAccess 'review'), so a role removed in between changes nothing.
 */
export async function requireStudyReader(opts: {
  db: TDb;
  userId: string;
  id: string;
}): Promise<TStudyRef & { role: TTeamRole | null }> {
  const { db, userId, id } = opts;
  const study = await findStudy({ db, userId, id, notFound: WORKLIST_MESSAGES.notFound });
  if (!study.teamId) return { ...study, role: null };
  const role = await requireTeamRole({
    db,
    userId,
    teamId: study.teamId,
    roles: READER_ROLES,
    forbidden: WORKLIST_MESSAGES.readersOnly,
  });
  return { ...study, role };
}
