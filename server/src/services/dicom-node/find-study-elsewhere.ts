import { and, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { dicomInstances } from '../../db/schema.js';

/**
 * Whether an instance is checked against the one-space rule: everything filed into a team (by
 * AE title or a team key) and everything the node files for its owner. An account's own STOW-RS
 * into its personal space is an island, as every upload is, and is not checked: a self-registered
 * account learns nothing about which studies a team holds.
 */
export function spaceRuleApplies(teamId: string | null, source: 'dimse' | 'stow'): boolean {
  return teamId !== null || source === 'dimse';
}

/**
 * Issue 32: a study never lands in two teams. True when rows of this StudyInstanceUID already
 * live in another routed space: another team, or the personal network rows (source 'dimse') of
 * the node's owner when this one goes to a team (or of another account, for the owner's own).
 * Run inside the transaction that holds the study's lock (receiveInstance), so two instances of
 * one study sent to two AE titles at once cannot both pass.
 */
export async function findStudyElsewhere(
  tx: TDb,
  opts: { studyUid: string; userId: string; teamId: string | null },
): Promise<boolean> {
  const { studyUid, userId, teamId } = opts;
  const personalNetwork = and(isNull(dicomInstances.teamId), eq(dicomInstances.source, 'dimse'));
  const other = teamId
    ? or(and(isNotNull(dicomInstances.teamId), ne(dicomInstances.teamId, teamId)), personalNetwork)
    : or(isNotNull(dicomInstances.teamId), and(personalNetwork, ne(dicomInstances.userId, userId)));
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(dicomInstances)
    .where(and(eq(dicomInstances.studyInstanceUid, studyUid), other))
    .limit(1);
  return row !== undefined;
}

/** Serialises the filing of one study's instances (the check above, then the insert). */
export async function lockStudy(tx: TDb, studyUid: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`dicom-study:${studyUid}`}))`);
}
