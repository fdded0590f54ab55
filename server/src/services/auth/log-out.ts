import type { AppDeps, RequestMeta } from '../../deps.js';
import { auditAccount } from './audit-auth.js';
import type { TAuth } from './resolve-session.js';
import { revokeSession } from './revoke-sessions.js';
import { announceSessionsEnded } from './session-cache.js';

/**
 * Revokes the caller's session on the server, so a copy of the token (a replay) answers 401.
 * Without a session there is nothing to revoke and logging out still succeeds: the spec's client
 * clears its state whatever the answer.
 */
export async function logOut(
  opts: Pick<AppDeps, 'db' | 'redis' | 'config'> & { meta: RequestMeta; auth: TAuth | null },
): Promise<void> {
  const { meta, auth } = opts;
  const deps = opts;
  if (!auth?.sessionId) return;
  await revokeSession({ db: deps.db, sessionId: auth.sessionId });
  await announceSessionsEnded({ ...deps, sessionId: auth.sessionId });
  await auditAccount({ db: deps.db, meta, userId: auth.userId, action: 'auth.logout', outcome: 'success' });
}
