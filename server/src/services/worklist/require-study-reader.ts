import type { TDb } from '../../db/client.js';
import { dicomInstances } from '../../db/schema.js';
import { findOwned, READER_ROLES } from '../data-access/find-owned.js';
import { requireTeamRole } from '../data-access/team-role.js';
import type { TTeamRole } from '@contracts/schemas/team.js';
import { WORKLIST_MESSAGES } from '@contracts/schemas/worklist.js';

/**
 * The access check before a claim, a release or a review mark, from the one rule
 * (find-owned.ts, team-role.ts): a study the caller cannot read is NOT_FOUND, like a missing
 * id; in a team, a member who is not a radiologist or an admin is FORBIDDEN. A personal study is
 * its owner's alone (role null). The write that follows checks the rule again in its own
 * statement (ownedRow 'review'), so a role removed in between changes nothing.
 */
export async function requireStudyReader(opts: {
  db: TDb;
  userId: string;
  id: string;
}): Promise<{ teamId: string | null; role: TTeamRole | null }> {
  const { db, userId, id } = opts;
  const { teamId } = await findOwned({
    db,
    table: dicomInstances,
    id,
    userId,
    columns: { teamId: dicomInstances.teamId },
    notFound: WORKLIST_MESSAGES.notFound,
  });
  if (!teamId) return { teamId: null, role: null };
  const role = await requireTeamRole({
    db,
    userId,
    teamId,
    roles: READER_ROLES,
    forbidden: WORKLIST_MESSAGES.readersOnly,
  });
  return { teamId, role };
}
