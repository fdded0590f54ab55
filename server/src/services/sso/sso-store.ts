import type { AppDeps } from '../../deps.js';
import type { TTeamMembership } from '@contracts/schemas/sso.js';

/** A login in flight: what the callback must find again, kept in Redis under a browser-bound id. */
export interface TSsoTransaction {
  state: string;
  nonce: string;
  verifier: string;
  /** Set when a signed-in person links a hospital sign-in from Settings → Profile: their account. */
  linkUserId?: string;
}

/** An IdP identity waiting for its owner's one-time password confirmation before it is linked. */
export interface TPendingLink {
  userId: string;
  email: string;
  issuer: string;
  subject: string;
  sid: string | null;
  idToken: string;
  /** The memberships the claims mapped to, applied once the link is confirmed. */
  teams: TTeamMembership[];
}

// Ten minutes for a person at the IdP's login page or at our password prompt, then it is gone.
export const SSO_STEP_TTL_S = 600;

type TStoreDeps = Pick<AppDeps, 'redis' | 'config'>;
const keyOf = (deps: TStoreDeps, kind: 'tx' | 'link', id: string) => `${deps.config.QUEUE_PREFIX}:sso:${kind}:${id}`;

export async function saveSsoStep(
  opts: TStoreDeps & { kind: 'tx' | 'link'; id: string; value: TSsoTransaction | TPendingLink },
): Promise<void> {
  await opts.redis.set(keyOf(opts, opts.kind, opts.id), JSON.stringify(opts.value), 'EX', SSO_STEP_TTL_S);
}

/** Reads a step; `take` deletes it in the same command, so a state or a link works once. */
export async function readSsoStep<T extends TSsoTransaction | TPendingLink>(
  opts: TStoreDeps & { kind: 'tx' | 'link'; id: string; take: boolean },
): Promise<T | null> {
  const key = keyOf(opts, opts.kind, opts.id);
  const text = opts.take ? await opts.redis.getdel(key) : await opts.redis.get(key);
  return text ? (JSON.parse(text) as T) : null;
}

/** Marks a logout token's jti as used; false when it was already (a replay). */
export async function claimLogoutTokenId(opts: TStoreDeps & { issuer: string; jti: string }): Promise<boolean> {
  const key = `${opts.config.QUEUE_PREFIX}:sso:jti:${opts.issuer}:${opts.jti}`;
  return (await opts.redis.set(key, '1', 'EX', 24 * 3600, 'NX')) === 'OK';
}
