import { asc, gt } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import { auditEntryHash, GENESIS_HASH } from './record-audit.js';

export interface TChainReport {
  ok: boolean;
  entries: number;
  /** The id of the first entry whose hash or link does not match, if any. */
  brokenAt: number | null;
}

/** Walks the whole log in id order, recomputing every hash. */
export async function verifyAuditChain(opts: { db: TDb }): Promise<TChainReport> {
  const { db } = opts;
  let prev = GENESIS_HASH;
  let lastId = 0;
  let entries = 0;
  for (;;) {
    const rows = await db.select().from(auditLog).where(gt(auditLog.id, lastId)).orderBy(asc(auditLog.id)).limit(1000);
    if (rows.length === 0) return { ok: true, entries, brokenAt: null };
    for (const r of rows) {
      const expected = auditEntryHash(prev, r);
      if (r.prevHash !== prev || r.hash !== expected) return { ok: false, entries, brokenAt: r.id };
      prev = r.hash;
      lastId = r.id;
      entries++;
    }
  }
}
