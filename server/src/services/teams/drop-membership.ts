import { and, eq, or, sql } from 'drizzle-orm';
import { analyses, dicomInstances, studyClaims, teamMembers } from '../../db/schema.js';
import type { TTx } from './lock-team-admins.js';
import { voidInvitations } from './void-invitations.js';

/**
 * Inside the caller's transaction (which checked the last-admin rule under lockTeamAdmins):
 * ends a membership, releases the member's claims on the team's worklist and voids the pending
 * invitations of their address to the team (a link sent before must not bring them back).
 */
export async function dropMembership(opts: { tx: TTx; teamId: string; userId: string }): Promise<void> {
  const { tx, teamId, userId } = opts;
  await tx.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  const teamStudy = or(
    sql`${studyClaims.instanceId} in (select ${dicomInstances.id} from ${dicomInstances} where ${dicomInstances.teamId} = ${teamId})`,
    sql`${studyClaims.analysisId} in (select ${analyses.id} from ${analyses} where ${analyses.teamId} = ${teamId})`,
  );
  await tx
    .update(studyClaims)
    .set({ claimedBy: null, claimedAt: null })
    .where(and(eq(studyClaims.claimedBy, userId), teamStudy));
  await voidInvitations({ tx, teamId, userId });
}
