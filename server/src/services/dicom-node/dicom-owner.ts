import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';

/**
 * The account that receives the node's studies (DICOM_OWNER_EMAIL). Resolved when the node
 * starts, so a wrong address stops the node at boot with a clear message rather than failing
 * every study later.
 */
export async function findDicomOwner(opts: Pick<AppDeps, 'db' | 'config'>): Promise<string> {
  const email = opts.config.DICOM_OWNER_EMAIL;
  if (!email) throw new Error('DICOM_PORT is set but DICOM_OWNER_EMAIL is not: name the account that receives studies');
  const [row] = await opts.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (!row) throw new Error('DICOM_OWNER_EMAIL names no account: sign up with that address first');
  return row.id;
}
