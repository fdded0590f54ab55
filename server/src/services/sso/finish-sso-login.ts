import { and, eq } from 'drizzle-orm';
import { userIdentities } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { isAppError } from '../../lib/app-error.js';
import { newToken } from '../../lib/tokens.js';
import type { TSsoRefusal } from '@contracts/schemas/sso.js';
import { auditAccount } from '../auth/audit-auth.js';
import { findUserByEmail } from '../auth/find-user.js';
import { exchangeSsoCode, type TSsoClaims } from './exchange-sso-code.js';
import { syncSsoMemberships } from '../teams/sync-sso-memberships.js';
import { linkSsoIdentity } from './link-sso-identity.js';
import { openSsoSession } from './open-sso-session.js';
import { mapClaimsToTeams } from './sso-team-rule.js';
import { registerSsoUser } from './register-sso-user.js';
import { ssoLanding } from './sso-landing.js';
import { readSsoStep, saveSsoStep, type TSsoTransaction } from './sso-store.js';

export type TSsoOutcome =
  /** `landing`: the page to open (sso-landing.ts: the team's worklist or patients, else the root). */
  | { kind: 'signed-in'; token: string; landing: string }
  | { kind: 'confirm-link'; linkId: string }
  | { kind: 'linked' }
  /** `linking`: the refusal ends a link started from Settings, so the browser goes back there. */
  | { kind: 'refused'; reason: TSsoRefusal; linking?: boolean };

type TFinishDeps = Pick<AppDeps, 'db' | 'redis' | 'config' | 'log'>;

/**
 * The callback: checks the IdP's answer, then finds the account by (issuer, sub) only. An
 * identity seen for the first time is linked to an account with the same e-mail only after the
 * IdP vouches for the address (email_verified: true) AND its owner types the local password once
 * (confirmSsoLink); otherwise a new account is made only with OIDC_AUTO_REGISTER and an allowed
 * domain. Refusals come back as codes for the login page and are audited.
 */
export async function finishSsoLogin(
  opts: TFinishDeps & {
    meta: RequestMeta;
    transactionId: string | undefined;
    callbackQuery: string;
    /** The account signed in in this browser, if any (a link from Settings must come back to it). */
    signedInUserId: string | null;
  },
): Promise<TSsoOutcome> {
  const { db, config, meta } = opts;
  const deps: TFinishDeps = opts;
  const refuse = async (reason: TSsoRefusal, userId: string | null = null): Promise<TSsoOutcome> => {
    await auditAccount({ db, meta, userId, action: 'auth.sso_login', outcome: 'failure', details: { reason } });
    return { kind: 'refused', reason, ...(linking ? { linking } : {}) };
  };
  let linking = false;
  const transaction = opts.transactionId
    ? await readSsoStep<TSsoTransaction>({ ...deps, kind: 'tx', id: opts.transactionId, take: true })
    : null;
  if (!transaction) return refuse('bad_response');
  linking = Boolean(transaction.linkUserId);

  let found: TSsoClaims;
  try {
    found = await exchangeSsoCode({ ...deps, callbackQuery: opts.callbackQuery, transaction });
  } catch (err) {
    if (isAppError(err) && err.code === 'UNAVAILABLE') return refuse('idp_unreachable');
    if (isAppError(err) && err.code === 'BAD_REQUEST') return refuse('bad_response');
    throw err;
  }
  const { claims } = found;
  const { mapped, noRole } = await mapClaimsToTeams({ db, config, claims });
  if (noRole) return refuse('no_role', transaction.linkUserId ?? null);
  const sync = (userId: string) =>
    syncSsoMemberships({ ...deps, meta, userId, mapped, strict: config.OIDC_ROLE_STRICT });

  if (transaction.linkUserId) {
    // Started from Settings: the same account must still be signed in here.
    if (transaction.linkUserId !== opts.signedInUserId) return refuse('bad_response', transaction.linkUserId);
    const refused = await linkSsoIdentity({ ...deps, meta, userId: transaction.linkUserId, found, mapped });
    return refused ? { kind: 'refused', reason: refused, linking } : { kind: 'linked' };
  }

  const [identity] = await db
    .select({ id: userIdentities.id, userId: userIdentities.userId })
    .from(userIdentities)
    .where(and(eq(userIdentities.issuer, found.issuer), eq(userIdentities.subject, found.subject)))
    .limit(1);
  if (identity) {
    await sync(identity.userId);
    const token = await openSsoSession({ db, meta, userId: identity.userId, identityId: identity.id, ...found });
    return { kind: 'signed-in', token, landing: await ssoLanding({ db, userId: identity.userId }) };
  }

  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  const verified = claims.email_verified === true;
  const existing = email ? await findUserByEmail({ db, email }) : null;
  if (existing) {
    // Linking on an unverified address is the account take-over of Grafana's CVE-2022-31107.
    if (!verified) return refuse('email_unverified', existing.id);
    const linkId = newToken();
    await saveSsoStep({
      ...deps,
      kind: 'link',
      id: linkId,
      value: {
        userId: existing.id,
        email,
        issuer: found.issuer,
        subject: found.subject,
        sid: found.sid,
        idToken: found.idToken,
        teams: mapped,
      },
    });
    return { kind: 'confirm-link', linkId };
  }
  if (!config.OIDC_AUTO_REGISTER) return refuse('no_account');
  if (!email || !verified) return refuse('email_unverified');
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (!config.OIDC_ALLOWED_DOMAINS.includes(domain)) return refuse('domain_not_allowed');
  const created = await registerSsoUser({ ...deps, meta, email, claims, issuer: found.issuer, subject: found.subject });
  await sync(created.userId);
  const token = await openSsoSession({ db, meta, ...created, ...found });
  return { kind: 'signed-in', token, landing: await ssoLanding({ db, userId: created.userId }) };
}
