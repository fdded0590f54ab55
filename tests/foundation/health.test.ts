import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { auditLog } from '../../server/src/db/schema.js';
import { recordAudit } from '../../server/src/services/audit/record-audit.js';
import { verifyAuditChain } from '../../server/src/services/audit/verify-audit-chain.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';

// Drizzle wraps the driver's error; the trigger's message is on the cause.
const appendOnly = (err: unknown) => /append-only/.test(String((err as { cause?: Error }).cause?.message ?? err));

for (const backend of testBackends()) {
  describe(`foundation on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ backend });
    });
    afterAll(async () => {
      await t.close();
    });

    test('healthz answers while the process is up', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ok' });
    });

    test('readyz is 200 when database and Redis answer', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ready', checks: { database: true, redis: true } });
    });

    test('readyz is 503 when Redis is unreachable', async () => {
      t.deps.redis.disconnect();
      try {
        const res = await t.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(res.statusCode, 503);
        assert.equal(res.json().checks.redis, false);
      } finally {
        await t.deps.redis.connect().catch(() => undefined);
      }
    });

    test('security headers are on every response', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
      assert.doesNotMatch(String(res.headers['content-security-policy']), /script-src[^;]*unsafe-inline/);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.ok(res.headers['x-request-id']);
    });

    test('unknown API paths are JSON 404s, not the client shell', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().success, false);
    });

    test('the audit log is append-only and hash-chained', async () => {
      await recordAudit({
        db: t.deps.db,
        meta: { ip: '127.0.0.1', requestId: 'r1' },
        entry: { actorUserId: null, action: 'test.one', outcome: 'success' },
      });
      await recordAudit({
        db: t.deps.db,
        meta: null,
        entry: {
          actorUserId: null,
          action: 'test.two',
          outcome: 'failure',
          details: { n: 1 },
        },
      });
      assert.deepEqual(await verifyAuditChain({ db: t.deps.db }), { ok: true, entries: 2, brokenAt: null });
      await assert.rejects(t.deps.db.update(auditLog).set({ action: 'forged' }), appendOnly);
      await assert.rejects(t.deps.db.delete(auditLog), appendOnly);
      await assert.rejects(t.deps.db.execute(sql`truncate audit_log`), appendOnly);
    });

    test('a burst of concurrent audit writes keeps one unbroken chain', async () => {
      const before = (await verifyAuditChain({ db: t.deps.db })).entries;
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          recordAudit({
            db: t.deps.db,
            meta: null,
            entry: { actorUserId: null, action: 'test.burst', outcome: 'success', details: { i } },
          }),
        ),
      );
      assert.deepEqual(await verifyAuditChain({ db: t.deps.db }), { ok: true, entries: before + 60, brokenAt: null });
    });
  });
}
