import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import { recordAudit } from '../audit/record-audit.js';

/**
 * Account events in the audit log: the user's id (never the email or name), the outcome and a
 * reason code, plus the IP and request id recorded by recordAudit.
 */
export function auditAccount(opts: {
  db: TDb;
  meta: RequestMeta;
  userId: string | null;
  action: string;
  outcome: 'success' | 'failure';
  details?: Record<string, string | number | boolean | null>;
}): Promise<void> {
  const { db, meta, userId, action, outcome, details } = opts;
  return recordAudit({
    db,
    meta,
    entry: {
      actorUserId: userId,
      action,
      objectType: 'user',
      objectId: userId,
      outcome,
      details: details ?? null,
    },
  });
}
