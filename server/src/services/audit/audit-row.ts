import type { auditLog } from '../../db/schema.js';

// Its own module: record-audit.ts and read-audit-sink.ts both need it and import each other no more.
/** An entry as made at request time; entryId makes a redelivered one insert once. */
export type TAuditRow = Omit<typeof auditLog.$inferInsert, 'id' | 'prevHash' | 'hash' | 'entryId'> & {
  at: Date;
  entryId: string;
};
