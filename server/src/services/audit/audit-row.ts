import type { auditLog } from '../../db/schema.js';

// Its own module: record-audit.ts and read-audit-sink.ts both need it and import each other no more.
/** An entry as made at request time; entryId makes a redelivered one insert once. */
export type TAuditRow = Omit<typeof auditLog.$inferInsert, 'id' | 'prevHash' | 'hash' | 'entryId'> & {
  at: Date;
  entryId: string;
};

/** Every column spelt out, absent ones as null: the form the hash, the insert and the stream all read. */
export type TNormalAuditRow = { [K in keyof TAuditRow]-?: Exclude<TAuditRow[K], undefined> };

/** The one place an entry's optional columns become null, so the chain and the stream agree. */
export function normalizeAuditRow(row: TAuditRow): TNormalAuditRow {
  return {
    entryId: row.entryId,
    at: row.at,
    actorUserId: row.actorUserId ?? null,
    action: row.action,
    objectType: row.objectType ?? null,
    objectId: row.objectId ?? null,
    outcome: row.outcome,
    ip: row.ip ?? null,
    requestId: row.requestId ?? null,
    details: row.details ?? null,
    teamId: row.teamId ?? null,
  };
}
