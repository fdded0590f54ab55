import { z } from 'zod';
import { normalizeAuditRow, type TAuditRow } from './audit-row.js';

/** One Redis stream per deployment (QUEUE_PREFIX) holds read-audit entries not yet stored. */
export const readAuditStreamKey = (prefix: string) => `${prefix}:audit:reads`;
export const READ_AUDIT_GROUP = 'writers';

const ZQueuedRow = z.object({
  entryId: z.uuid(),
  at: z.iso.datetime(),
  actorUserId: z.string().nullable(),
  action: z.string(),
  objectType: z.string().nullable(),
  objectId: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  ip: z.string().nullable(),
  requestId: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
  teamId: z.string().nullable().optional(),
});

export function encodeAuditRow(row: TAuditRow): string {
  return JSON.stringify({ ...normalizeAuditRow(row), at: row.at.toISOString() });
}

/** The row, or null for a stream entry this code did not write. */
export function decodeAuditRow(text: string | undefined): TAuditRow | null {
  try {
    const parsed = ZQueuedRow.safeParse(JSON.parse(text ?? ''));
    return parsed.success ? { ...parsed.data, at: new Date(parsed.data.at) } : null;
  } catch {
    return null;
  }
}

export type TStreamEntry = [id: string, fields: string[]];

/** XREADGROUP/XAUTOCLAIM reply items; entries deleted meanwhile come back as [id, null]. */
export function streamEntriesOf(items: unknown): TStreamEntry[] {
  if (!Array.isArray(items)) return [];
  return items.filter((e): e is TStreamEntry => Array.isArray(e) && typeof e[0] === 'string' && Array.isArray(e[1]));
}
