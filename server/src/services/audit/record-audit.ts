import { createHash } from 'node:crypto';
import { desc, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';

export interface TAuditEntry {
  actorUserId: string | null;
  action: string;
  objectType?: string | null;
  objectId?: string | null;
  outcome: 'success' | 'failure';
  /** Ids, counts and codes only: never a name, an email, a password or message text. */
  details?: Record<string, string | number | boolean | null> | null;
}

export const GENESIS_HASH = '0'.repeat(64);

/** The hash that chains an entry to the one before it; verify-audit-chain.ts recomputes it. */
export function auditEntryHash(prevHash: string, e: {
  at: Date; actorUserId: string | null; action: string; objectType: string | null; objectId: string | null;
  outcome: string; ip: string | null; requestId: string | null; details: Record<string, unknown> | null;
}): string {
  const canonical = JSON.stringify([
    e.at.toISOString(), e.actorUserId, e.action, e.objectType, e.objectId, e.outcome, e.ip, e.requestId,
    e.details ? Object.fromEntries(Object.entries(e.details).sort(([a], [b]) => a.localeCompare(b))) : null,
  ]);
  return createHash('sha256').update(prevHash).update(canonical).digest('hex');
}

/**
 * Appends one entry. A transaction-scoped advisory lock serialises writers so the chain has no
 * forks even with several server processes on one PostgreSQL.
 */
export async function recordAudit(db: TDb, meta: RequestMeta | null, entry: TAuditEntry): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727274)`);
    const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    const prevHash = last?.hash ?? GENESIS_HASH;
    const row = {
      at: new Date(),
      actorUserId: entry.actorUserId,
      action: entry.action,
      objectType: entry.objectType ?? null,
      // A probed id is caller input: PostgreSQL text cannot hold NUL, and a probe must not bloat the log.
      objectId: entry.objectId == null ? null : entry.objectId.replace(/\0/g, '\uFFFD').slice(0, 200),
      outcome: entry.outcome,
      ip: meta?.ip ?? null,
      requestId: meta?.requestId ?? null,
      details: entry.details ?? null,
    };
    await tx.insert(auditLog).values({ ...row, prevHash, hash: auditEntryHash(prevHash, row) });
  });
}
