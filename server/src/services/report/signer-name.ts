import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { users } from '../../db/schema.js';

/** The name a signature carries: the account's name as it is when signing. */
export async function signerName(opts: { db: TDb; userId: string }): Promise<string> {
  const [row] = await opts.db.select({ name: users.name }).from(users).where(eq(users.id, opts.userId)).limit(1);
  return row?.name ?? 'Unknown reader';
}
