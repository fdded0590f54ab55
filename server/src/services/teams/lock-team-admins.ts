import { and, count, eq, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { teamMembers, teams } from '../../db/schema.js';
import type { TTeamRole } from '@contracts/schemas/team.js';

export type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];

/**
 * Inside a transaction: locks the team's row, so two admins demoting or removing each other at
 * once cannot both pass the last-admin check, and returns the member's role (null: not one) and
 * how many admins the team has.
 */
export async function lockTeamAdmins(opts: {
  tx: TTx;
  teamId: string;
  userId: string;
}): Promise<{ role: TTeamRole | null; admins: number }> {
  const { tx, teamId, userId } = opts;
  await tx.execute(sql`select ${teams.id} from ${teams} where ${teams.id} = ${teamId} for update`);
  const [member] = await tx
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  const [admins] = await tx
    .select({ n: count() })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, 'admin')));
  return { role: member?.role ?? null, admins: admins?.n ?? 0 };
}
