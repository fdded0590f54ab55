import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import { recordAudit, type TAuditEntry } from './record-audit.js';

export type TAuditOutcome = (outcome: TAuditEntry['outcome'], details?: TAuditEntry['details']) => Promise<void>;

/** Who did what to which object: the fields every entry of a user's action is made from. */
export interface TAuditTarget {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  action: string;
  objectType: string;
  objectId?: string | null;
}

/**
 * The entry for one action on one object, written with whichever outcome the service reaches:
 * a service that can succeed or fail at different points names the action and object once.
 */
export function auditOutcomeOf(opts: TAuditTarget): TAuditOutcome {
  const { db, meta, userId, action, objectType } = opts;
  const entry = { actorUserId: userId, action, objectType, objectId: opts.objectId ?? null };
  return (outcome, details = null) => recordAudit({ db, meta, entry: { ...entry, outcome, details } });
}
