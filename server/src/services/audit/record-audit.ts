import { createHash, randomUUID } from 'node:crypto';
import { desc, sql } from 'drizzle-orm';
import { PgTransaction, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { TDb, TSchema } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { normalizeAuditRow, type TAuditRow } from './audit-row.js';
import { readAuditSinkOf } from './read-audit-sink.js';
import { teamsOfAuditRows } from './audit-team.js';

export type { TAuditRow };

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
export function auditEntryHash(
  prevHash: string,
  e: {
    at: Date;
    actorUserId: string | null;
    action: string;
    objectType: string | null;
    objectId: string | null;
    outcome: string;
    ip: string | null;
    requestId: string | null;
    details: Record<string, unknown> | null;
    teamId: string | null;
  },
): string {
  const canonical = JSON.stringify([
    e.at.toISOString(),
    e.actorUserId,
    e.action,
    e.objectType,
    e.objectId,
    e.outcome,
    e.ip,
    e.requestId,
    e.details ? Object.fromEntries(Object.entries(e.details).sort(([a], [b]) => a.localeCompare(b))) : null,
    // Only when set: entries without a team (all those written before teams) hash as they did.
    ...(e.teamId ? [e.teamId] : []),
  ]);
  return createHash('sha256').update(prevHash).update(canonical).digest('hex');
}

function toRow(meta: RequestMeta | null, entry: TAuditEntry): TAuditRow {
  return {
    entryId: randomUUID(),
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
}

/** A driver's result rows (node-postgres and PGlite both answer `{ rows }`). */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Chains rows onto the newest entry and inserts them in one statement. A transaction-scoped
 * advisory lock serialises writers so the chain has no forks even with several server processes
 * on one PostgreSQL. Entries already stored (a redelivered read entry, or one written here after
 * Redis timed out and then queued after all) are dropped first, under the lock: skipping one only
 * at INSERT time (ON CONFLICT) would chain the next entry to a hash that is not in the log.
 * Each column goes as one array parameter (unnest): the read-audit writer inserts hundreds of
 * entries a second, and a VALUES list of twelve parameters per entry cost more to build than the
 * insert itself. Arrays travel as text[] and are cast in SQL, which both drivers serialise alike.
 */
export async function appendAuditRows(opts: {
  db: TDb | PgTransaction<PgQueryResultHKT, TSchema>;
  rows: TAuditRow[];
}): Promise<void> {
  const { db } = opts;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727274)`);
    const ids = [...new Set(opts.rows.map((r) => r.entryId))];
    const stored = rowsOf<{ entry_id: string }>(
      await tx.execute(sql`select entry_id from audit_log where entry_id = any(${sql.param(ids)}::text[]::uuid[])`),
    );
    const seen = new Set(stored.map((r) => r.entry_id));
    const rows = opts.rows.filter((r) => !seen.has(r.entryId) && (seen.add(r.entryId), true));
    if (rows.length === 0) return;
    const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    let prevHash = last?.hash ?? GENESIS_HASH;
    const teams = await teamsOfAuditRows({ db: tx as unknown as TDb, rows });
    const columns = {
      at: [] as string[],
      actor: [] as (string | null)[],
      action: [] as string[],
      objectType: [] as (string | null)[],
      objectId: [] as (string | null)[],
      outcome: [] as string[],
      ip: [] as (string | null)[],
      requestId: [] as (string | null)[],
      details: [] as (string | null)[],
      prevHash: [] as string[],
      hash: [] as string[],
      entryId: [] as string[],
      teamId: [] as (string | null)[],
    };
    for (const row of rows) {
      const entry = { ...normalizeAuditRow(row), teamId: row.teamId ?? teams.get(row.entryId) ?? null };
      const hash = auditEntryHash(prevHash, entry);
      columns.at.push(entry.at.toISOString());
      columns.actor.push(entry.actorUserId);
      columns.action.push(entry.action);
      columns.objectType.push(entry.objectType);
      columns.objectId.push(entry.objectId);
      columns.outcome.push(entry.outcome);
      columns.ip.push(entry.ip);
      columns.requestId.push(entry.requestId);
      columns.details.push(entry.details ? JSON.stringify(entry.details) : null);
      columns.prevHash.push(prevHash);
      columns.hash.push(hash);
      columns.entryId.push(entry.entryId);
      columns.teamId.push(entry.teamId);
      prevHash = hash;
    }
    const c = columns;
    const p = (values: unknown[]) => sql`${sql.param(values)}::text[]`;
    // ORDER BY ord: ids (bigserial, the chain's order) are drawn in the order the rows arrive.
    await tx.execute(sql`
      insert into audit_log
        (at, actor_user_id, action, object_type, object_id, outcome, ip, request_id, details, prev_hash, hash, entry_id,
         team_id)
      select at::timestamptz, actor::uuid, action, object_type, object_id, outcome, ip, request_id, details::jsonb,
             prev_hash, hash, entry_id::uuid, team_id::uuid
      from unnest(${p(c.at)}, ${p(c.actor)}, ${p(c.action)}, ${p(c.objectType)}, ${p(c.objectId)}, ${p(c.outcome)},
                  ${p(c.ip)}, ${p(c.requestId)}, ${p(c.details)}, ${p(c.prevHash)}, ${p(c.hash)}, ${p(c.entryId)},
                  ${p(c.teamId)})
        with ordinality as u(at, actor, action, object_type, object_id, outcome, ip, request_id, details, prev_hash,
                             hash, entry_id, team_id, ord)
      order by ord
      on conflict (entry_id) do nothing`);
  });
}

interface Pending {
  row: TAuditRow;
  done: (err?: unknown) => void;
}

/**
 * Entries written through the same database handle are grouped: while one group is being
 * written, newer entries wait in memory (not on a pooled connection holding the lock), then go
 * in together. Under a burst this turns N lock round-trips into a few, and no request holds a
 * connection while it waits its turn.
 */
class AuditBatcher {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly db: TDb) {}

  add(row: TAuditRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, done: (err) => (err ? reject(err) : resolve()) });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, 500);
      try {
        await appendAuditRows({ db: this.db, rows: batch.map((p) => p.row) });
        for (const p of batch) p.done();
      } catch (err) {
        for (const p of batch) p.done(err);
      }
    }
    this.flushing = false;
  }
}

const batchers = new WeakMap<object, AuditBatcher>();

/**
 * Appends one entry and resolves once it is stored. Inside a caller's transaction it is written
 * in that transaction (so it commits or rolls back with the change it describes). A read of
 * patient data, where a read-audit sink is attached (the server's background services), resolves
 * once the entry is durably queued; the sink inserts it behind the request, at least once.
 */
export async function recordAudit(opts: { db: TDb; meta: RequestMeta | null; entry: TAuditEntry }): Promise<void> {
  const { db, meta, entry } = opts;
  const row = toRow(meta, entry);
  if (db instanceof PgTransaction) return appendAuditRows({ db, rows: [row] });
  const sink = readAuditSinkOf({ db, action: entry.action });
  if (sink) {
    const queued = await sink.write(row).then(
      () => true,
      () => false,
    );
    if (queued) return;
    // Redis did not answer in time: store it now. Should the queued copy land after all, its
    // entryId makes the second insert a no-op.
  }
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new AuditBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher.add(row);
}
