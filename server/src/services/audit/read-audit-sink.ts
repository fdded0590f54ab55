import type { TAuditRow } from './audit-row.js';

/**
 * Reads of patient data, whose audit entries may be written behind the request (at least once,
 * through a durable queue). Everything else (sign-ins, changes, deletions, exports) is written
 * before the answer, in the transaction of the change where there is one.
 */
export const READ_ACTIONS: ReadonlySet<string> = new Set([
  'analysis.read',
  'history.init_info',
  'history.list',
  'history.read',
  'image.read',
  'profile.list',
  'profile.read',
  'profile.timeline',
  'report.read',
  'worklist.list',
]);

export interface TReadAuditSink {
  /** Resolves once the entry is durably queued; rejects when it could not be. */
  write(row: TAuditRow): Promise<void>;
}

// Keyed by the database handle, like the audit batcher: services keep taking just `db`, and a
// handle without a sink (tests, scripts) writes every entry synchronously.
const sinks = new WeakMap<object, TReadAuditSink>();

export function attachReadAuditSink(opts: { db: object; sink: TReadAuditSink }): () => void {
  const { db, sink } = opts;
  sinks.set(db, sink);
  return () => {
    if (sinks.get(db) === sink) sinks.delete(db);
  };
}

export function readAuditSinkOf(opts: { db: object; action: string }): TReadAuditSink | null {
  return READ_ACTIONS.has(opts.action) ? (sinks.get(opts.db) ?? null) : null;
}
