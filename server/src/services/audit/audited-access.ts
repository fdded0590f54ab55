import { isAppError } from '../../lib/app-error.js';
import { auditOutcomeOf, type TAuditTarget } from './audit-outcome.js';
import type { TAuditEntry } from './record-audit.js';

/**
 * Runs one create/read/update/delete of patient data and records it in the audit log with ids
 * only: success after the work, failure (with the error code) when a service refused it, so
 * probing for other accounts' ids leaves a trace. Unexpected errors are rethrown untouched.
 */
export async function auditedAccess<T>(
  opts: TAuditTarget & { work: () => Promise<T>; detailsOf?: (result: T) => TAuditEntry['details'] },
): Promise<T> {
  const { work, detailsOf } = opts;
  const audit = auditOutcomeOf(opts);
  let result: T;
  try {
    result = await work();
  } catch (err) {
    if (isAppError(err)) await audit('failure', { code: err.code });
    throw err;
  }
  await audit('success', detailsOf?.(result));
  return result;
}
