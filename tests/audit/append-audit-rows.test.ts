import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { asc, inArray } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/src/db/client.js';
import { auditLog } from '../../server/src/db/schema.js';
import { appendAuditRows, type TAuditRow } from '../../server/src/services/audit/record-audit.js';
import { verifyAuditChain } from '../../server/src/services/audit/verify-audit-chain.js';
import { createPostgresDatabase, pgliteSnapshot, testBackends } from '../helpers/test-config.js';

// appendAuditRows sends each column as one text[] parameter: values that an array literal must
// escape (quotes, backslashes, braces, commas, the word NULL, empty strings) and real nulls must
// come back exactly, in order, on both drivers, with the hash chain intact.
const AWKWARD = ['say "hi"', 'back\\slash', '{braces}', 'a,b', 'NULL', '', 'ünïcødé ✓', ' padded '];

for (const backend of testBackends()) {
  describe(`appendAuditRows on ${backend}`, () => {
    let database: Database;
    let drop: (() => Promise<void>) | null = null;

    beforeAll(async () => {
      const pgdb = backend === 'postgres' ? await createPostgresDatabase() : null;
      drop = pgdb?.drop ?? null;
      database = await openDatabase({ url: pgdb?.url, pgliteDir: 'memory://', pgliteSnapshot: pgliteSnapshot() });
    });
    afterAll(async () => {
      await database?.close();
      await drop?.();
    });

    test('awkward text, nulls and details are stored as given, in order, and the chain verifies', async () => {
      const base = Date.UTC(2026, 10, 22, 12, 0, 0);
      const rows: TAuditRow[] = AWKWARD.map((text, i) => ({
        entryId: randomUUID(),
        at: new Date(base + i * 1_001),
        actorUserId: i % 2 ? randomUUID() : null,
        action: `test.${i}`,
        objectType: i % 3 ? text : null,
        objectId: text,
        outcome: i % 2 ? 'failure' : 'success',
        ip: i % 2 ? null : '::1',
        requestId: text,
        details: i % 2 ? null : { note: text, n: i, ok: true, none: null },
      }));
      await appendAuditRows({ db: database.db, rows: rows.slice(0, 3) });
      await appendAuditRows({ db: database.db, rows: rows.slice(3) });

      const ids = rows.map((r) => r.entryId);
      const stored = await database.db
        .select()
        .from(auditLog)
        .where(inArray(auditLog.entryId, ids))
        .orderBy(asc(auditLog.id));
      assert.deepEqual(
        stored.map(({ id: _id, prevHash: _p, hash: _h, ...rest }) => rest),
        // No object of a team's: team_id stays null (services/audit/audit-team.ts).
        rows.map((r) => ({ ...r, teamId: null })),
      );
      for (let i = 1; i < stored.length; i++) assert.equal(stored[i]!.prevHash, stored[i - 1]!.hash);
      assert.deepEqual(await verifyAuditChain({ db: database.db }), { ok: true, entries: rows.length, brokenAt: null });
    });

    test('entries already stored are skipped, also when repeated within one call', async () => {
      const row = (): TAuditRow => ({
        entryId: randomUUID(),
        at: new Date(),
        actorUserId: null,
        action: 'test.again',
        objectType: null,
        objectId: null,
        outcome: 'success',
        ip: null,
        requestId: null,
        details: null,
      });
      const first = row();
      const second = row();
      await appendAuditRows({ db: database.db, rows: [first] });
      await appendAuditRows({ db: database.db, rows: [first, second, second] });
      const stored = await database.db
        .select()
        .from(auditLog)
        .where(inArray(auditLog.entryId, [first.entryId, second.entryId]));
      assert.equal(stored.length, 2);
      assert.equal((await verifyAuditChain({ db: database.db })).ok, true);
    });
  });
}
