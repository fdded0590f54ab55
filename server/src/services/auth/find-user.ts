import { eq } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { users } from '../../db/schema.js';
import type { TAuthUser } from '@contracts/schemas/auth.js';

export interface TUserWithHash extends TAuthUser {
  passwordHash: string;
}

const columns = { id: users.id, name: users.name, email: users.email, passwordHash: users.passwordHash };

/** Emails are stored lower-cased (ZEmail normalises input the same way). */
export async function findUserByEmail(opts: { db: TDb; email: string }): Promise<TUserWithHash | null> {
  const { db, email } = opts;
  const [row] = await db.select(columns).from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function findUserById(opts: { db: TDb; userId: string }): Promise<TUserWithHash | null> {
  const { db, userId } = opts;
  const [row] = await db.select(columns).from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

export function toAuthUser(u: TAuthUser): TAuthUser {
  return { id: u.id, name: u.name, email: u.email };
}
