import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { teamInvitations, teamMembers } from '../../db/schema.js';

/** How many members a team has (the 200 limit). */
export async function countMembers(opts: { db: TDb; teamId: string }): Promise<number> {
  const [row] = await opts.db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, opts.teamId));
  return row?.n ?? 0;
}

/** How many invitations of a team are still open: unused and unexpired (the 50 limit). */
export async function countPendingInvitations(opts: { db: TDb; teamId: string }): Promise<number> {
  const [row] = await opts.db
    .select({ n: count() })
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.teamId, opts.teamId),
        isNull(teamInvitations.usedAt),
        gt(teamInvitations.expiresAt, new Date()),
      ),
    );
  return row?.n ?? 0;
}
