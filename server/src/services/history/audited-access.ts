import type { TDb } from '../../db/client.js';
import type { RequestMeta } from '../../deps.js';
import { isAppError } from '../../lib/app-error.js';
import { recordAudit, type TAuditEntry } from '../audit/record-audit.js';

export interface TAuditContext {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
}

/**
 * Runs one create/read/update/delete of patient data and records it in the audit log with ids
 * only: success after the work, failure (with the error code) when a service refused it, so
 * probing for other accounts' ids leaves a trace. Unexpected errors are rethrown untouched.
 */
export async function auditedAccess<T>(
  ctx: TAuditContext,
  entry: Pick<TAuditEntry, 'action' | 'objectType'> & { objectId?: string | null },
  work: () => Promise<T>,
  detailsOf?: (result: T) => TAuditEntry['details'],
): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (err) {
    if (isAppError(err)) {
      await recordAudit(ctx.db, ctx.meta, {
        actorUserId: ctx.userId,
        ...entry,
        objectId: entry.objectId ?? null,
        outcome: 'failure',
        details: { code: err.code },
      });
    }
    throw err;
  }
  await recordAudit(ctx.db, ctx.meta, {
    actorUserId: ctx.userId,
    ...entry,
    objectId: entry.objectId ?? null,
    outcome: 'success',
    details: detailsOf?.(result) ?? null,
  });
  return result;
}
