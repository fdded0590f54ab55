import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import { isAppError } from '../../lib/app-error.js';
import { recordAudit, type TAuditEntry } from './record-audit.js';

/**
 * Runs one create/read/update/delete of patient data and records it in the audit log with ids
 * only: success after the work, failure (with the error code) when a service refused it, so
 * probing for other accounts' ids leaves a trace. Unexpected errors are rethrown untouched.
 */
export async function auditedAccess<T>(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  action: string;
  objectType: string;
  objectId?: string | null;
  work: () => Promise<T>;
  detailsOf?: (result: T) => TAuditEntry['details'];
}): Promise<T> {
  const { db, meta, userId, action, objectType, work, detailsOf } = opts;
  const entry = { actorUserId: userId, action, objectType, objectId: opts.objectId ?? null };
  let result: T;
  try {
    result = await work();
  } catch (err) {
    if (isAppError(err))
      await recordAudit({ db, meta, entry: { ...entry, outcome: 'failure', details: { code: err.code } } });
    throw err;
  }
  await recordAudit({ db, meta, entry: { ...entry, outcome: 'success', details: detailsOf?.(result) ?? null } });
  return result;
}
