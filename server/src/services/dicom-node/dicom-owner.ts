import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';

export const OWNER_UNSET = 'DICOM_OWNER_EMAIL is not set: name the account that receives studies';
export const OWNER_NO_ACCOUNT = 'DICOM_OWNER_EMAIL names no account yet: sign up with that address';

export type TDicomOwner = { userId: string; reason: null } | { userId: null; reason: string };

/**
 * The account that receives the node's studies (DICOM_OWNER_EMAIL), or why there is none yet.
 * Checked at boot and every few seconds (watchDicomOwner); until there is one the node refuses
 * associations, so no study lands in an account nobody has claimed.
 */
export async function resolveDicomOwner(opts: Pick<AppDeps, 'db' | 'config'>): Promise<TDicomOwner> {
  const email = opts.config.DICOM_OWNER_EMAIL;
  if (!email) return { userId: null, reason: OWNER_UNSET };
  const [row] = await opts.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (!row) return { userId: null, reason: OWNER_NO_ACCOUNT };
  return { userId: row.id, reason: null };
}
