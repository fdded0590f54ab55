import { and, eq, isNull, sql } from 'drizzle-orm';
import { teamInvitations, users } from '../../db/schema.js';
import type { TTx } from './lock-team-admins.js';

/**
 * Inside the caller's transaction: deletes the pending invitations of userId's address to teamId.
 * Called when the person joins (a second link must not outlive the first), leaves or is removed
 * (a removed member must not walk back in with a link sent before the removal; issue 39 S4).
 */
export async function voidInvitations(opts: { tx: TTx; teamId: string; userId: string }): Promise<void> {
  const { tx, teamId, userId } = opts;
  await tx
    .delete(teamInvitations)
    .where(
      and(
        eq(teamInvitations.teamId, teamId),
        isNull(teamInvitations.usedAt),
        eq(teamInvitations.email, sql`(select lower(${users.email}) from ${users} where ${users.id} = ${userId})`),
      ),
    );
}
