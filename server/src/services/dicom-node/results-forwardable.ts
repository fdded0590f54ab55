import { and, eq, exists, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { dicomInstances, stowForwarding } from '../../db/schema.js';

/**
 * Whether a site administrator listed a space in stow_forwarding: the account's personal space
 * (`teamId` null, `userId` listed) or the team. Correlated on the given row's columns.
 */
export function spaceListed(db: TDb, row: { userId: AnyColumn; teamId: AnyColumn }): SQL {
  const listed = or(
    and(isNull(row.teamId), eq(stowForwarding.userId, row.userId)),
    eq(stowForwarding.teamId, row.teamId),
  );
  return exists(
    db
      .select({ one: sql`1` })
      .from(stowForwarding)
      .where(listed),
  );
}

/**
 * The one rule for whose results leave the building (issue 36 S2, issue 46 H1), as a condition
 * on a dicom_instances row: an instance the node received over DIMSE (the node files everything
 * for its owner, the hospital's own account, or for a team by the called AE title), or an
 * instance of a space a site administrator listed in stow_forwarding: an account's personal
 * space, or a team (its team keys' instances; issue 32). STOW is open to any account with an API
 * key, so without this a self-registered user could file an SR in any patient's study at the
 * PACS, or a final ORU under any patient's MRN at the RIS. The AI's objects, the report's SR
 * and its ORU all follow it (report/delivery/find-forwardable-study.ts), each when queued and
 * again when sent (a job queued before the rule, or before a listing was revoked, sends nothing).
 */
export function resultsForwardable(db: TDb): SQL {
  return or(eq(dicomInstances.source, 'dimse'), spaceListed(db, dicomInstances))!;
}
