import { teamMembers, teams } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import type { TTeam } from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';

/** A new team with its creator as its first admin (a team is never without one). */
export async function createTeam(
  opts: Pick<AppDeps, 'db'> & { meta: RequestMeta | null; userId: string; name: string },
): Promise<TTeam> {
  const { db, userId } = opts;
  const team = await db.transaction(async (tx) => {
    const [row] = await tx.insert(teams).values({ name: opts.name }).returning({ id: teams.id, name: teams.name });
    if (!row) throw new Error('team insert returned no row');
    await tx.insert(teamMembers).values({ teamId: row.id, userId, role: 'admin' });
    return row;
  });
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: userId,
      action: 'team.create',
      objectType: 'team',
      objectId: team.id,
      outcome: 'success',
      details: { teamId: team.id },
    },
  });
  return { ...team, role: 'admin', aeTitle: null };
}
