import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import { userIdentities, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { SSO_MESSAGES, type TLinkedIdentities } from '@contracts/schemas/sso.js';
import { auditAccount } from '../auth/audit-auth.js';
import { isUuid } from '../data-access/is-uuid.js';
import { NO_PASSWORD } from './register-sso-user.js';

type TDeps = Pick<AppDeps, 'db' | 'config'>;

/** Whether the account can still sign in with its password: it has one and the site allows it. */
const passwordUsable = (config: TDeps['config'], passwordHash: string) =>
  config.PASSWORD_LOGIN === 'on' && passwordHash !== NO_PASSWORD;

/** The hospital sign-ins linked to userId (Settings → Profile). */
export async function listLinkedIdentities(opts: TDeps & { userId: string }): Promise<TLinkedIdentities> {
  const { db, config, userId } = opts;
  const rows = await db
    .select({
      id: userIdentities.id,
      issuer: userIdentities.issuer,
      createdAt: userIdentities.createdAt,
      lastLoginAt: userIdentities.lastLoginAt,
    })
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.createdAt));
  const [user] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return {
    identities: rows.map((r) => ({
      id: r.id,
      issuer: r.issuer,
      createdAt: r.createdAt.toISOString(),
      lastLoginAt: r.lastLoginAt?.toISOString() ?? null,
    })),
    hasPassword: user ? passwordUsable(config, user.hash) : false,
    sso: Boolean(config.OIDC_ISSUER),
    buttonText: config.OIDC_BUTTON_TEXT,
  };
}

/**
 * Unlinks one of userId's hospital sign-ins, only while another way in remains: a usable
 * password, or another linked sign-in. The account row is locked so two unlinks at once cannot
 * both see "one other left". The identity's IdP sessions lose their back-channel link (cascade).
 */
export async function unlinkIdentity(
  opts: TDeps & { meta: RequestMeta; userId: string; identityId: string },
): Promise<void> {
  const { db, config, userId, identityId } = opts;
  if (!isUuid(identityId)) throw new AppError('NOT_FOUND', SSO_MESSAGES.identityNotFound);
  const mine = and(eq(userIdentities.id, identityId), eq(userIdentities.userId, userId));
  await db.transaction(async (tx) => {
    await tx.execute(sql`select ${users.id} from ${users} where ${users.id} = ${userId} for update`);
    const [user] = await tx.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
    const [target] = await tx.select({ id: userIdentities.id }).from(userIdentities).where(mine);
    if (!user || !target) throw new AppError('NOT_FOUND', SSO_MESSAGES.identityNotFound);
    const [others] = await tx
      .select({ n: count() })
      .from(userIdentities)
      .where(and(eq(userIdentities.userId, userId), ne(userIdentities.id, identityId)));
    if (!passwordUsable(config, user.hash) && (others?.n ?? 0) === 0)
      throw new AppError('CONFLICT', SSO_MESSAGES.lastSignIn);
    await tx.delete(userIdentities).where(mine);
  });
  await auditAccount({
    db,
    meta: opts.meta,
    userId,
    action: 'auth.sso_unlink',
    outcome: 'success',
    details: { identityId },
  });
}
