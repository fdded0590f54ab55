import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { users } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { recordAudit } from '../audit/record-audit.js';

export type TGrantedVia = 'operator' | 'verified-email';

/**
 * Gives the site-admin role to the account with this address (issue 23 N3). Only two callers:
 * the operator command and a verified listed address. Returns the user id, or null when no
 * account has the address. Audited with the account's id, never the address.
 */
export async function grantSiteAdmin(opts: {
  db: TDb;
  meta: RequestMeta | null;
  email: string;
  via: TGrantedVia;
  /** Only this account (a verification link names the account it was sent for). */
  userId?: string;
}): Promise<string | null> {
  const [row] = await opts.db
    .update(users)
    .set({ siteAdminSince: new Date() })
    .where(and(eq(users.email, opts.email.trim().toLowerCase()), opts.userId ? eq(users.id, opts.userId) : undefined))
    .returning({ id: users.id });
  if (!row) return null;
  await recordAudit({
    db: opts.db,
    meta: opts.meta,
    entry: {
      actorUserId: opts.via === 'operator' ? null : row.id,
      action: 'site.admin_grant',
      objectType: 'user',
      objectId: row.id,
      outcome: 'success',
      details: { via: opts.via },
    },
  });
  return row.id;
}

/** Takes the role away; the user id, or null when no account has the address. */
export async function revokeSiteAdmin(opts: {
  db: TDb;
  meta: RequestMeta | null;
  email: string;
}): Promise<string | null> {
  const [row] = await opts.db
    .update(users)
    .set({ siteAdminSince: null })
    .where(eq(users.email, opts.email.trim().toLowerCase()))
    .returning({ id: users.id });
  if (!row) return null;
  await recordAudit({
    db: opts.db,
    meta: opts.meta,
    entry: {
      actorUserId: null,
      action: 'site.admin_revoke',
      objectType: 'user',
      objectId: row.id,
      outcome: 'success',
      details: { via: 'operator' },
    },
  });
  return row.id;
}

/** Every site administrator, oldest grant first (for the operator command). */
export async function listSiteAdmins(opts: { db: TDb }): Promise<{ email: string; since: Date }[]> {
  const rows = await opts.db
    .select({ email: users.email, since: users.siteAdminSince })
    .from(users)
    .where(isNotNull(users.siteAdminSince))
    .orderBy(asc(users.siteAdminSince));
  return rows.map((r) => ({ email: r.email, since: r.since ?? new Date(0) }));
}
