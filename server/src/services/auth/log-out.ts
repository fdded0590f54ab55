import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import { auditAccount } from './audit-auth.js';
import type { TAuth } from './resolve-session.js';
import { revokeSession } from './revoke-sessions.js';

/**
 * Revokes the caller's session on the server, so a copy of the token (a replay) answers 401.
 * Without a session there is nothing to revoke and logging out still succeeds: the spec's client
 * clears its state whatever the answer.
 */
export async function logOut(db: TDb, meta: RequestMeta, auth: TAuth | null): Promise<void> {
  if (!auth?.sessionId) return;
  await revokeSession(db, auth.sessionId);
  await auditAccount(db, meta, 'auth.logout', auth.userId, 'success');
}
