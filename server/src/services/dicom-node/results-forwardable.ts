import { and, eq, exists, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { dicomInstances, stowForwarding } from '../../db/schema.js';

/**
 * The one rule for whose results go back to the PACS at DICOM_DESTINATION (issue 36 S2), as a
 * condition on a dicom_instances row: an instance the node received over DIMSE (the node files
 * everything for its owner, the hospital's own account, or for a team by the called AE title),
 * or a STOW-RS instance of a space a site administrator listed in stow_forwarding: an account's
 * personal space, or a team (its team keys' instances; issue 32). STOW is open to any account
 * with an API key, so without this a self-registered user could file an SR in any patient's
 * study at the PACS. The advancer queues a send only where it holds, and the send job checks it
 * again (a job queued before the rule, or before a listing was revoked, sends nothing).
 */
export function resultsForwardable(db: TDb): SQL {
  const listed = or(
    and(isNull(dicomInstances.teamId), eq(stowForwarding.userId, dicomInstances.userId)),
    eq(stowForwarding.teamId, dicomInstances.teamId),
  );
  return or(
    eq(dicomInstances.source, 'dimse'),
    exists(
      db
        .select({ one: sql`1` })
        .from(stowForwarding)
        .where(listed),
    ),
  )!;
}
