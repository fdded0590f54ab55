import type { TDb } from '../../db/client.js';
import { isAppError } from '../../lib/app-error.js';
import type { TReport } from '@contracts/schemas/report.js';
import { requireReportAccess } from '../data-access/report-access.js';
import { readReport } from './read-report.js';

/**
 * The stored report of an analysis for a reader who is not in the report panel (the chat), or
 * null when none is drafted yet or the caller may not read it: the report's own access rule,
 * answered rather than thrown, so a chat question never reveals a report its asker cannot open.
 */
export async function findReadableReport(opts: {
  db: TDb;
  userId: string;
  analysisId: string;
}): Promise<TReport | null> {
  try {
    await requireReportAccess({ ...opts, access: 'read' });
  } catch (err) {
    if (isAppError(err) && err.code === 'NOT_FOUND') return null;
    throw err;
  }
  return readReport({ db: opts.db, analysisId: opts.analysisId, canSign: false });
}
