import { and, count, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import {
  analyses,
  chats,
  dicomInstances,
  dicomPatients,
  findingFeedback,
  patientProfiles,
  storedImages,
  teamMembers,
  teams,
} from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';

type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0];

/** The shared tables whose team rows outlive their author (schema.ts `authorColumn`). */
const AUTHORED = [patientProfiles, storedImages, chats, analyses, findingFeedback, dicomPatients, dicomInstances];

/**
 * Inside the transaction that deletes userId's account: the teams keep what userId made in them.
 * Their rows lose their author (user_id null) instead of going with the account, so they stay the
 * team's: members read them, admins and radiologists change them, and no clinician can, as
 * nobody "made" them any more (find-owned.ts). Null rather than a team admin: the row would
 * otherwise claim someone read or reported what they did not (feedback records its reader);
 * who did what stays in the audit log. A team userId is the only member of goes with them, rows
 * and all, as their personal space would. The last admin of a team with other members is refused
 * (CONFLICT) until they make another member admin. Returns the storage keys of the images of the
 * teams deleted, for the caller to remove once committed.
 */
export async function handOverTeamRows(opts: { tx: TTx; userId: string }): Promise<{
  rows: number;
  teamsDeleted: number;
  imageKeys: string[];
}> {
  const { tx, userId } = opts;
  const mine = await tx
    .select({ teamId: teamMembers.teamId, role: teamMembers.role, name: teams.name })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId));
  const alone: string[] = [];
  for (const m of mine) {
    // The team's row lock is the one lockTeamAdmins takes: a concurrent demotion waits for us.
    await tx.execute(sql`select ${teams.id} from ${teams} where ${teams.id} = ${m.teamId} for update`);
    const [n] = await tx
      .select({
        members: count(),
        admins: sql<number>`count(*) filter (where ${teamMembers.role} = 'admin')`.mapWith(Number),
      })
      .from(teamMembers)
      .where(eq(teamMembers.teamId, m.teamId));
    if ((n?.members ?? 0) <= 1) alone.push(m.teamId);
    else if (m.role === 'admin' && (n?.admins ?? 0) <= 1)
      throw new AppError('CONFLICT', `${TEAM_MESSAGES.lastAdminDeleting} (${m.name})`);
  }
  const imageKeys = alone.length
    ? (
        await tx.select({ key: storedImages.storageKey }).from(storedImages).where(inArray(storedImages.teamId, alone))
      ).map((r) => r.key)
    : [];
  if (alone.length) await tx.delete(teams).where(inArray(teams.id, alone));
  let rows = 0;
  for (const table of AUTHORED) {
    const handed = await tx
      .update(table)
      .set({ userId: null })
      .where(and(eq(table.userId, userId), isNotNull(table.teamId)))
      .returning({ id: table.id });
    rows += handed.length;
  }
  return { rows, teamsDeleted: alone.length, imageKeys };
}
