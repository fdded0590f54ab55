import { asc, eq } from 'drizzle-orm';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { stowForwarding, users } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import {
  STOW_FORWARDING_MESSAGES,
  type TSetStowForwardingInput,
  type TStowForwardingList,
} from '@contracts/schemas/stow-forwarding.js';
import { recordAudit } from '../audit/record-audit.js';

type TOpts = Pick<AppDeps, 'db'> & { meta: RequestMeta | null; userId: string };

/** The accounts whose STOW-RS results go to DICOM_DESTINATION (resultsForwardable reads the same table). */
export async function listStowForwarding(opts: Pick<AppDeps, 'db'>): Promise<TStowForwardingList> {
  const rows = await opts.db
    .select({ userId: users.id, name: users.name, email: users.email, since: stowForwarding.createdAt })
    .from(stowForwarding)
    .innerJoin(users, eq(users.id, stowForwarding.userId))
    .orderBy(asc(users.email));
  return { items: rows.map((r) => ({ ...r, since: r.since.toISOString() })) };
}

/**
 * A site administrator lets one account's STOW-RS results go to the PACS, or stops them
 * (issue 36 S2). Named by e-mail address, as the administrator knows the router's account;
 * each change is in the audit log with the account's id. Turning it on twice changes nothing.
 */
export async function setStowForwarding(
  opts: TOpts & { input: TSetStowForwardingInput },
): Promise<TStowForwardingList> {
  const { db, meta, userId, input } = opts;
  const { forward } = input;
  const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
  if (!account) throw new AppError('NOT_FOUND', STOW_FORWARDING_MESSAGES.noAccount);
  await db.transaction(async (tx) => {
    if (forward)
      await tx.insert(stowForwarding).values({ userId: account.id, grantedBy: userId }).onConflictDoNothing();
    else await tx.delete(stowForwarding).where(eq(stowForwarding.userId, account.id));
    await recordAudit({
      db: tx as unknown as typeof db,
      meta,
      entry: {
        actorUserId: userId,
        action: forward ? 'site.stow-forwarding.on' : 'site.stow-forwarding.off',
        objectType: 'user',
        objectId: account.id,
        outcome: 'success',
      },
    });
  });
  return listStowForwarding({ db });
}
