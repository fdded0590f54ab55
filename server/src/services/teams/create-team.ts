import { count, eq } from 'drizzle-orm';
import { teamMembers, teams, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { MAX_TEAMS_PER_ACCOUNT, TEAM_MESSAGES, teamSlug, type TTeam } from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';

/**
 * A new team with its creator as its first admin (a team is never without one). Its slug is
 * unique (teams_slug_uq): "RADIOLOGY!" beside "Radiology" would make the slug OIDC_TEAM_MAP names
 * ambiguous (issue 39 S1). A slug the map names is reserved for a site administrator, so nobody
 * can squat a mapped team before it exists and receive its SSO members (S3). An account already
 * in MAX_TEAMS_PER_ACCOUNT teams cannot create another (each team can send invitations).
 */
export async function createTeam(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; name: string },
): Promise<TTeam> {
  const { db, userId } = opts;
  const slug = teamSlug(opts.name);
  const reserved = opts.config.OIDC_TEAM_MAP.some((e) => e.team === slug);
  const team = await db.transaction(async (tx) => {
    // The account's row is locked so that its concurrent creations count each other.
    const [me] = await tx
      .select({ siteAdminSince: users.siteAdminSince })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (reserved && !me?.siteAdminSince) return null;
    const [mine] = await tx.select({ n: count() }).from(teamMembers).where(eq(teamMembers.userId, userId));
    if ((mine?.n ?? 0) >= MAX_TEAMS_PER_ACCOUNT) throw new AppError('CONFLICT', TEAM_MESSAGES.tooManyTeams);
    const [row] = await tx
      .insert(teams)
      .values({ name: opts.name, slug })
      .onConflictDoNothing({ target: teams.slug })
      .returning({ id: teams.id, name: teams.name });
    if (!row) throw new AppError('CONFLICT', TEAM_MESSAGES.nameTaken);
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
      objectId: team?.id ?? null,
      outcome: team ? 'success' : 'failure',
      details: team ? { teamId: team.id } : { reason: 'reserved_slug' },
    },
  });
  if (!team) throw new AppError('FORBIDDEN', TEAM_MESSAGES.nameReserved);
  return { ...team, role: 'admin', aeTitle: null };
}
