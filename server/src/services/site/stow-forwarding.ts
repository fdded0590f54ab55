import { asc, eq } from 'drizzle-orm';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { stowForwarding, teams, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import {
  STOW_FORWARDING_MESSAGES,
  type TSetStowForwardingInput,
  type TStowForwardingList,
} from '@contracts/schemas/stow-forwarding.js';
import { recordAudit } from '../audit/record-audit.js';
import { isUuid } from '../data-access/is-uuid.js';

type TOpts = Pick<AppDeps, 'db'> & { meta: RequestMeta | null; userId: string };

/** The accounts and teams whose STOW-RS results go to DICOM_DESTINATION (resultsForwardable reads the same table). */
export async function listStowForwarding(opts: Pick<AppDeps, 'db'>): Promise<TStowForwardingList> {
  const rows = await opts.db
    .select({ userId: users.id, name: users.name, email: users.email, since: stowForwarding.createdAt })
    .from(stowForwarding)
    .innerJoin(users, eq(users.id, stowForwarding.userId))
    .orderBy(asc(users.email));
  const teamRows = await opts.db
    .select({ teamId: teams.id, name: teams.name, since: stowForwarding.createdAt })
    .from(stowForwarding)
    .innerJoin(teams, eq(teams.id, stowForwarding.teamId))
    .orderBy(asc(teams.name));
  return {
    items: rows.map((r) => ({ ...r, since: r.since.toISOString() })),
    teams: teamRows.map((r) => ({ ...r, since: r.since.toISOString() })),
  };
}

/** The account (by e-mail address) or team (by id) named, or NOT_FOUND. */
async function spaceOf(opts: Pick<AppDeps, 'db'> & { input: TSetStowForwardingInput }) {
  const { db, input } = opts;
  if (input.email !== undefined) {
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
    if (!account) throw new AppError('NOT_FOUND', STOW_FORWARDING_MESSAGES.noAccount);
    return { userId: account.id, teamId: null, objectType: 'user', objectId: account.id };
  }
  const teamId = input.teamId ?? '';
  const [team] = isUuid(teamId)
    ? await db.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).limit(1)
    : [];
  if (!team) throw new AppError('NOT_FOUND', STOW_FORWARDING_MESSAGES.noTeam);
  return { userId: null, teamId: team.id, objectType: 'team', objectId: team.id };
}

/**
 * A site administrator lets one account's STOW-RS results (its personal space), or one team's
 * (its team keys' instances), go to the PACS, or stops them (issue 36 S2, issue 32). An account
 * is named by e-mail address, as the administrator knows the router's account; a team by id.
 * Each change is in the audit log with the account's or team's id. Turning it on twice changes
 * nothing.
 */
export async function setStowForwarding(
  opts: TOpts & { input: TSetStowForwardingInput },
): Promise<TStowForwardingList> {
  const { db, meta, userId, input } = opts;
  const { forward } = input;
  const space = await spaceOf({ db, input });
  const column = space.teamId ? stowForwarding.teamId : stowForwarding.userId;
  await db.transaction(async (tx) => {
    if (forward)
      await tx
        .insert(stowForwarding)
        .values({ userId: space.userId, teamId: space.teamId, grantedBy: userId })
        .onConflictDoNothing();
    else await tx.delete(stowForwarding).where(eq(column, space.objectId));
    await recordAudit({
      db: tx as unknown as typeof db,
      meta,
      entry: {
        actorUserId: userId,
        action: forward ? 'site.stow-forwarding.on' : 'site.stow-forwarding.off',
        objectType: space.objectType,
        objectId: space.objectId,
        outcome: 'success',
      },
    });
  });
  return listStowForwarding({ db });
}
