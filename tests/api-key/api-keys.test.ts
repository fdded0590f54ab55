import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apiKeys, auditLog } from '../../server/src/db/schema.js';
import { hashToken } from '../../server/src/lib/tokens.js';
import { API_KEY_MESSAGES, MAX_ACTIVE_API_KEYS } from '@contracts/schemas/api-key.js';
import { createContextInner } from '../../server/src/trpc/context.js';
import { appRouter } from '../../server/src/trpc/router.js';
import { createCallerFactory } from '../../server/src/trpc/trpc.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';

const createCaller = createCallerFactory(appRouter);

for (const backend of testBackends()) {
  describe(`API keys on ${backend}`, () => {
    let t: TestApp;
    let alice: TTestUser;
    let bob: TTestUser;
    beforeAll(async () => {
      t = await createTestApp({ backend });
      alice = await createUser(t.deps);
      bob = await createUser(t.deps);
    });
    afterAll(async () => {
      await t.close();
    });

    const create = (user: TTestUser, name: string) =>
      t.app.inject({ method: 'POST', url: '/api/api-keys', headers: bearer(user.token), payload: { name } });

    test('create shows the key once; listings never show it; only its sha256 is stored', async () => {
      const res = await create(alice, 'Batch laptop');
      assert.equal(res.statusCode, 201);
      assert.equal(res.headers['cache-control'], 'private, no-store');
      const body = res.json();
      assert.equal(body.message, API_KEY_MESSAGES.created);
      const key: string = body.data.key;
      assert.match(key, /^cxr_[A-Za-z0-9_-]{43}$/);
      assert.equal(body.data.apiKey.name, 'Batch laptop');
      assert.ok(key.startsWith(body.data.apiKey.prefix));

      const list = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: bearer(alice.token) });
      assert.equal(list.statusCode, 200);
      assert.ok(!list.body.includes(key), 'the listing does not contain the key');
      assert.ok(list.json().data.keys.some((k: { id: string }) => k.id === body.data.apiKey.id));

      const [row] = await t.deps.db.select().from(apiKeys).where(eq(apiKeys.id, body.data.apiKey.id));
      assert.equal(row?.keyHash, hashToken(key));
      assert.ok(!Object.values(row ?? {}).some((v) => v === key), 'no column holds the key');
    });

    test('the key works as Authorization: Bearer on the REST API, and stops working once revoked', async () => {
      const { data } = (await create(alice, 'Revoke me')).json();
      const viaKey = await t.app.inject({
        method: 'GET',
        url: '/api/history/get-init-info',
        headers: bearer(data.key),
      });
      assert.equal(viaKey.statusCode, 200);
      const [used] = await t.deps.db
        .select({ lastUsedAt: apiKeys.lastUsedAt })
        .from(apiKeys)
        .where(eq(apiKeys.id, data.apiKey.id));
      assert.ok(used?.lastUsedAt, 'last use is recorded');

      const revoked = await t.app.inject({
        method: 'DELETE',
        url: `/api/api-keys/${data.apiKey.id}`,
        headers: { ...bearer(alice.token), 'content-type': 'application/json' },
        payload: '{}',
      });
      assert.equal(revoked.statusCode, 200);
      assert.equal(revoked.json().message, API_KEY_MESSAGES.revoked);
      const after = await t.app.inject({ method: 'GET', url: '/api/history/get-init-info', headers: bearer(data.key) });
      assert.equal(after.statusCode, 401);
      const list = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: bearer(alice.token) });
      assert.ok(!list.json().data.keys.some((k: { id: string }) => k.id === data.apiKey.id));
    });

    test("another account's key id answers exactly like a missing one, and stays valid", async () => {
      const { data } = (await create(alice, 'Not yours')).json();
      const foreign = await t.app.inject({
        method: 'DELETE',
        url: `/api/api-keys/${data.apiKey.id}`,
        headers: bearer(bob.token),
      });
      const missing = await t.app.inject({
        method: 'DELETE',
        url: `/api/api-keys/${crypto.randomUUID()}`,
        headers: bearer(bob.token),
      });
      const malformed = await t.app.inject({
        method: 'DELETE',
        url: '/api/api-keys/not-a-uuid',
        headers: bearer(bob.token),
      });
      for (const res of [foreign, missing, malformed]) {
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { success: false, message: API_KEY_MESSAGES.notFound, code: 'NOT_FOUND' });
      }
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/api/history/get-init-info', headers: bearer(data.key) }))
          .statusCode,
        200,
      );
      const bobs = await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: bearer(bob.token) });
      assert.deepEqual(bobs.json().data.keys, []);
    });

    test('an API key cannot list, create or revoke keys (password session only)', async () => {
      const { data } = (await create(alice, 'Script')).json();
      for (const req of [
        { method: 'GET' as const, url: '/api/api-keys' },
        { method: 'POST' as const, url: '/api/api-keys', payload: { name: 'Escalate' } },
        { method: 'DELETE' as const, url: `/api/api-keys/${data.apiKey.id}` },
      ]) {
        const res = await t.app.inject({ ...req, headers: bearer(data.key) });
        assert.equal(res.statusCode, 403, `${req.method} ${req.url}`);
        assert.equal(res.json().message, API_KEY_MESSAGES.sessionOnly);
      }
    });

    test('requires authentication', async () => {
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/api-keys' })).statusCode, 401);
      assert.equal(
        (await t.app.inject({ method: 'POST', url: '/api/api-keys', payload: { name: 'x' } })).statusCode,
        401,
      );
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/api/api-keys', headers: bearer('cxr_made_up') })).statusCode,
        401,
      );
    });

    test('a blank name is refused with the schema message', async () => {
      const res = await create(alice, '   ');
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().message, API_KEY_MESSAGES.nameRequired);
    });

    test('tRPC apiKey.* create/list/revoke, audited with ids only', async () => {
      const caller = createCaller(
        createContextInner({
          deps: t.deps,
          auth: { ...alice.user, userId: alice.user.id, sessionId: 'x', via: 'session' },
        }),
      );
      const created = await caller.apiKey.create({ name: 'tRPC key' });
      assert.ok((await caller.apiKey.list()).keys.some((k) => k.id === created.apiKey.id));
      assert.deepEqual(await caller.apiKey.revoke({ id: created.apiKey.id }), { id: created.apiKey.id });
      await assert.rejects(caller.apiKey.revoke({ id: created.apiKey.id }), /API key not found/);
      const entries = await t.deps.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.objectId, created.apiKey.id)));
      assert.deepEqual(
        entries.map((e) => [e.action, e.outcome]),
        [
          ['api_key.create', 'success'],
          ['api_key.revoke', 'success'],
          ['api_key.revoke', 'failure'],
        ],
      );
      for (const e of entries)
        assert.ok(!JSON.stringify(e).includes('tRPC key'), 'the key name is not in the audit log');
    });

    test(`at most ${MAX_ACTIVE_API_KEYS} active keys`, async () => {
      const carol = await createUser(t.deps);
      for (let i = 0; i < MAX_ACTIVE_API_KEYS; i++) assert.equal((await create(carol, `k${i}`)).statusCode, 201);
      const res = await create(carol, 'one too many');
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().message, API_KEY_MESSAGES.tooMany);
    });
  });
}
