import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';

export const OWNER_UNSET = 'DICOM_OWNER_EMAIL is not set: name the account that receives studies';
export const OWNER_NO_ACCOUNT = 'DICOM_OWNER_EMAIL names no account yet: sign up with that address';
export const OWNER_UNCONFIRMED =
  "DICOM_OWNER_EMAIL's account has not confirmed its address: open the link e-mailed to it (Settings sends another)";

export type TDicomOwner = { userId: string; reason: null } | { userId: null; reason: string };

/**
 * The account that receives the node's studies (DICOM_OWNER_EMAIL), or why there is none yet.
 * Proven means the account exists and its owner followed the confirmation link mailed to that
 * address (confirm-dicom-owner.ts): whoever signs up first with the address gets nothing.
 * Checked at boot and every few seconds (watchDicomOwner); until there is one the node refuses
 * associations, so no study lands in an account nobody has proven (issue 36, S11).
 */
export async function resolveDicomOwner(opts: Pick<AppDeps, 'db' | 'config'>): Promise<TDicomOwner> {
  const email = opts.config.DICOM_OWNER_EMAIL;
  if (!email) return { userId: null, reason: OWNER_UNSET };
  const [row] = await opts.db
    .select({ id: users.id, confirmedAt: users.dicomOwnerConfirmedAt })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  if (!row) return { userId: null, reason: OWNER_NO_ACCOUNT };
  if (!row.confirmedAt) return { userId: null, reason: OWNER_UNCONFIRMED };
  return { userId: row.id, reason: null };
}
