import { and, eq } from 'drizzle-orm';
import { teamMembers } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import type { TSsoTeamChange, TTeamMembership } from '@contracts/schemas/sso.js';
import { recordAudit } from '../audit/record-audit.js';
import { planTeamSync } from '../sso/plan-team-sync.js';
import { loadMemberships, resolveMappedTeams } from '../sso/resolve-mapped-teams.js';
import { dropMembership } from './drop-membership.js';
import { lockTeamAdmins } from './lock-team-admins.js';
import { publishMemberRemoved } from './membership-signal.js';
import { voidInvitations } from './void-invitations.js';

/**
 * At every SSO login: makes userId's team memberships follow the groups claim (planTeamSync
 * decides, the site admin's preview shows the same plan). Every team involved is locked first,
 * in id order, so a concurrent demotion by a team admin cannot pass the last-admin check at the
 * same time. Access follows on the next request: find-owned.ts reads membership in each query.
 */
export async function syncSsoMemberships(
  opts: Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'> & {
    meta: RequestMeta;
    userId: string;
    mapped: readonly TTeamMembership[];
    strict: boolean;
  },
): Promise<TSsoTeamChange[]> {
  const { db, log, userId } = opts;
  const { resolved, skipped } = await resolveMappedTeams({ db, mapped: opts.mapped });
  for (const s of skipped)
    log.warn({ team: s.slug, reason: s.reason }, 'OIDC_TEAM_MAP names a team slug that matches no single team');

  const changes = await db.transaction(async (tx) => {
    const before = await loadMemberships({ db: tx, userId });
    const ids = [...new Set([...before.map((m) => m.teamId), ...resolved.map((r) => r.teamId)])].sort();
    for (const teamId of ids) await lockTeamAdmins({ tx, teamId, userId });
    // Read again under the locks: the plan is made from what cannot change until commit.
    const current = await loadMemberships({ db: tx, userId });
    const plan = planTeamSync({ current, resolved, skipped, strict: opts.strict });
    for (const c of plan) {
      if (!c.teamId) continue;
      const member = and(eq(teamMembers.teamId, c.teamId), eq(teamMembers.userId, userId));
      if (c.action === 'join' && c.to) {
        await tx
          .insert(teamMembers)
          .values({ teamId: c.teamId, userId, role: c.to, source: 'sso' })
          .onConflictDoNothing();
        await voidInvitations({ tx, teamId: c.teamId, userId });
      }
      if (c.action === 'change' && c.to) await tx.update(teamMembers).set({ role: c.to, source: 'sso' }).where(member);
      if (c.action === 'remove') await dropMembership({ tx, teamId: c.teamId, userId });
    }
    return plan;
  });

  for (const c of changes) {
    // After the commit, as removeMember does: the person's open subscriptions on the team end.
    if (c.action === 'remove' && c.teamId)
      await publishMemberRemoved(opts.redis, opts.config.QUEUE_PREFIX, { teamId: c.teamId, userId }).catch(
        (err: unknown) =>
          log.warn({ err }, 'membership signal not published; subscriptions re-check on their next event'),
      );
    const kept = c.action === 'keep' && c.reason === 'last_admin';
    if (kept) log.warn({ teamId: c.teamId }, 'SSO groups would leave a team without an admin; the admin role is kept');
    if (c.action !== 'join' && c.action !== 'change' && c.action !== 'remove' && !kept) continue;
    await recordAudit({
      db,
      meta: opts.meta,
      entry: {
        actorUserId: userId,
        action: 'team.sso_sync',
        objectType: 'team',
        objectId: c.teamId,
        outcome: kept ? 'failure' : 'success',
        details: { teamId: c.teamId, change: c.action, from: c.from, to: c.to, reason: c.reason },
      },
    });
  }
  return changes;
}
