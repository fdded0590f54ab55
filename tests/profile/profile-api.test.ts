import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, chats, patientProfiles } from '../../server/src/db/schema.js';
import { createChat, createProfile, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { rest, trpc, TEST_ENV } from '../history/http.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f-]{36}$/;

type TLegacyProfile = { profile_id: string; created_at: string; profile: Record<string, unknown> };

for (const backend of testBackends()) {
  describe(`patient profiles on ${backend}`, () => {
    let t: TestApp;
    let me: TTestUser;
    let other: TTestUser;
    const listOf = async (u: TTestUser) =>
      (
        (await rest(t.app, 'GET', `/api/profile/${u.user.id}`, u.token)).body as {
          data: { profiles: TLegacyProfile[] };
        }
      ).data.profiles;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
      me = await createUser(t.deps);
      other = await createUser(t.deps);
    });
    afterAll(async () => {
      await t.close();
    });

    test('REST create answers the spec shape; REST list and tRPC get return the same profile field by field', async () => {
      const created = await rest(t.app, 'POST', '/api/profile/create', me.token, {
        user_id: me.user.id,
        profile: {
          full_name: '  Ada Lovelace ',
          age: '36',
          Allergies: 'penicillin',
          Empty: '',
          Nothing: null,
          Meds: { daily: 'aspirin' },
          Smoker: false,
        },
      });
      assert.equal(created.status, 201);
      const body = created.body as {
        success: boolean;
        message: string;
        data: { profile_id: string; created_at: string };
      };
      assert.deepEqual(Object.keys(body).sort(), ['data', 'message', 'success']);
      assert.equal(body.success, true);
      assert.equal(body.message, 'Profile created successfully');
      assert.deepEqual(Object.keys(body.data).sort(), ['created_at', 'profile_id']);
      assert.match(body.data.profile_id, UUID);
      assert.match(body.data.created_at, ISO);

      const listed = await rest(t.app, 'GET', `/api/profile/${me.user.id}`, me.token);
      assert.equal(listed.status, 200);
      const lb = listed.body as { success: boolean; data: { profiles: TLegacyProfile[] } };
      assert.equal(lb.success, true);
      const item = lb.data.profiles.find((p) => p.profile_id === body.data.profile_id);
      assert.deepEqual(item, {
        profile_id: body.data.profile_id,
        created_at: body.data.created_at,
        // Null and empty custom values dropped; objects stringified; the name trimmed.
        profile: {
          full_name: 'Ada Lovelace',
          age: 36,
          Allergies: 'penicillin',
          Meds: '{"daily":"aspirin"}',
          Smoker: 'false',
        },
      });

      const got = await trpc(t.app, 'query', 'profile.get', me.token, { profileId: body.data.profile_id });
      assert.equal(got.status, 200);
      const p = got.data as Record<string, unknown>;
      assert.equal(p.id, item.profile_id);
      assert.equal(p.patientName, item.profile.full_name);
      assert.equal(p.age, item.profile.age);
      assert.deepEqual(p.additionalInfo, { Allergies: 'penicillin', Meds: '{"daily":"aspirin"}', Smoker: 'false' });
      assert.equal(p.createdAt, item.created_at);
      assert.match(String(p.updatedAt), ISO);
      assert.equal(p.medicalHistory, 'Allergies: penicillin; Meds: {"daily":"aspirin"}; Smoker: false');
    });

    test('tRPC create and update are visible through REST with the same fields', async () => {
      const created = await trpc(t.app, 'mutation', 'profile.create', me.token, {
        patientName: 'Grace Hopper',
        age: '85',
        additionalFields: [{ key: 'Symptoms', value: 'cough ' }],
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const c = created.data as { id: string; createdAt: string; medicalHistory: string };
      assert.equal(c.medicalHistory, 'Symptoms: cough');
      let item = (await listOf(me)).find((x) => x.profile_id === c.id);
      assert.deepEqual(item, {
        profile_id: c.id,
        created_at: c.createdAt,
        profile: { full_name: 'Grace Hopper', age: 85, Symptoms: 'cough' },
      });

      const upd = await rest(t.app, 'PUT', `/api/profile/${me.user.id}/${c.id}`, me.token, {
        profile: { full_name: 'Grace B. Hopper', age: '86' },
      });
      assert.equal(upd.status, 200);
      const ub = upd.body as { success: boolean; message: string; data: { profile_id: string; updated_at: string } };
      assert.equal(ub.success, true);
      assert.equal(ub.message, 'Profile updated successfully');
      assert.equal(ub.data.profile_id, c.id);
      item = (await listOf(me)).find((x) => x.profile_id === c.id);
      assert.deepEqual(item?.profile, { full_name: 'Grace B. Hopper', age: 86 });

      const viaTrpc = await trpc(t.app, 'mutation', 'profile.update', me.token, {
        profileId: c.id,
        profile: { patientName: 'Grace Hopper', age: 0, additionalFields: [{ key: 'Rank', value: 'Rear Admiral' }] },
      });
      assert.equal(viaTrpc.status, 200);
      item = (await listOf(me)).find((x) => x.profile_id === c.id);
      assert.deepEqual(item?.profile, { full_name: 'Grace Hopper', age: 0, Rank: 'Rear Admiral' });
    });

    test('REST delete answers the spec message; the chats started from it keep their patient snapshot', async () => {
      const profile = await createProfile(t.deps, me.user.id, {
        fullName: 'Snapshot Patient',
        customFields: { Cough: 'dry' },
      });
      const { chat } = await createChat(t.deps, me.user.id, { profile, withMessages: true });
      const del = await rest(t.app, 'DELETE', `/api/profile/${me.user.id}/${profile.id}`, me.token);
      assert.equal(del.status, 200);
      assert.deepEqual(del.body, { success: true, message: 'Profile deleted successfully' });
      assert.equal(
        (await listOf(me)).some((x) => x.profile_id === profile.id),
        false,
      );
      const again = await rest(t.app, 'DELETE', `/api/profile/${me.user.id}/${profile.id}`, me.token);
      assert.equal(again.status, 404);
      const [kept] = await t.deps.db.select().from(chats).where(eq(chats.id, chat.id));
      assert.equal(kept?.profileId, null);
      assert.deepEqual(kept?.patient, {
        full_name: 'Snapshot Patient',
        age: String(profile.age),
        medical_history: 'Cough: dry',
      });
      const hist = await trpc(t.app, 'query', 'history.get', me.token, { chatId: chat.id });
      assert.equal(
        (hist.data as { chat: { patientName: string; profileId: null } }).chat.patientName,
        'Snapshot Patient',
      );
    });

    test("validation answers the spec's messages on both interfaces", async () => {
      const restCases: [Record<string, unknown>, string][] = [
        [{ full_name: 'Jo', age: '30' }, 'Patient name must be at least 3 characters'],
        [{ full_name: '  Jo  ', age: '30' }, 'Patient name must be at least 3 characters'],
        [{ age: '30' }, 'Patient name must be at least 3 characters'],
        [{ full_name: 'Alan Turing', age: '151' }, 'Please enter a valid age'],
        [{ full_name: 'Alan Turing', age: '-1' }, 'Please enter a valid age'],
        [{ full_name: 'Alan Turing', age: 'abc' }, 'Please enter a valid age'],
        [{ full_name: 'Alan Turing', age: '' }, 'Please enter a valid age'],
        [{ full_name: 'Alan Turing', age: '4.5' }, 'Please enter a valid age'],
        [{ full_name: 'Alan Turing' }, 'Please enter a valid age'],
        [
          { full_name: 'Alan Turing', age: '41', '  ': 'orphan value' },
          'Please fill in all additional fields or remove empty ones',
        ],
      ];
      for (const [profile, message] of restCases) {
        const r = await rest(t.app, 'POST', '/api/profile/create', me.token, { user_id: me.user.id, profile });
        assert.equal(r.status, 400, JSON.stringify(profile));
        assert.deepEqual(r.body, { success: false, message, code: 'BAD_REQUEST' });
      }
      const trpcCases: [Record<string, unknown>, string][] = [
        [{ patientName: 'Al', age: 3 }, 'Patient name must be at least 3 characters'],
        [{ patientName: 'Alan Turing', age: 151 }, 'Please enter a valid age'],
        [{ patientName: 'Alan Turing', age: '' }, 'Please enter a valid age'],
        [
          { patientName: 'Alan Turing', age: 41, additionalFields: [{ key: '', value: 'x' }] },
          'Please fill in all additional fields or remove empty ones',
        ],
        [
          { patientName: 'Alan Turing', age: 41, additionalFields: [{ key: 'Allergies', value: '   ' }] },
          'Please fill in all additional fields or remove empty ones',
        ],
      ];
      for (const [input, message] of trpcCases) {
        const r = await trpc(t.app, 'mutation', 'profile.create', me.token, input);
        assert.equal(r.status, 400, JSON.stringify(input));
        assert.equal(r.error?.message, message);
      }
      for (const age of ['0', '150', 0, 150]) {
        const r = await rest(t.app, 'POST', '/api/profile/create', me.token, {
          profile: { full_name: 'Edge Age', age },
        });
        assert.equal(r.status, 201, `age ${String(age)}`);
      }
    });

    test('mass assignment cannot change ownership or reach a prototype', async () => {
      const sneaky = {
        full_name: 'Mass Assign',
        age: '40',
        user_id: other.user.id,
        owner_id: other.user.id,
        id: other.user.id,
        profile_id: other.user.id,
        constructor: 'x',
        prototype: 'y',
        Notes: 'kept',
      };
      const r = await rest(t.app, 'POST', '/api/profile/create', me.token, {
        user_id: me.user.id,
        owner_id: other.user.id,
        profile: sneaky,
      });
      assert.equal(r.status, 201);
      const id = (r.body as { data: { profile_id: string } }).data.profile_id;
      assert.notEqual(id, other.user.id);
      const [row] = await t.deps.db.select().from(patientProfiles).where(eq(patientProfiles.id, id));
      assert.equal(row?.userId, me.user.id);
      assert.deepEqual(row?.customFields, { Notes: 'kept' });
      assert.equal((await listOf(other)).length, 0);

      // The same through an update, tRPC extra keys, and a raw __proto__ key.
      const upd = await rest(t.app, 'PUT', `/api/profile/${me.user.id}/${id}`, me.token, {
        user_id: other.user.id,
        profile: sneaky,
      });
      assert.equal(upd.status, 200);
      const viaTrpc = await trpc(t.app, 'mutation', 'profile.create', me.token, {
        patientName: 'Mass Assign',
        age: 40,
        userId: other.user.id,
        id: other.user.id,
        additionalFields: [
          { key: 'user_id', value: other.user.id },
          { key: '__proto__', value: 'polluted' },
          { key: 'Kept', value: 'yes' },
        ],
      });
      assert.equal(viaTrpc.status, 200);
      const [row2] = await t.deps.db
        .select()
        .from(patientProfiles)
        .where(eq(patientProfiles.id, (viaTrpc.data as { id: string }).id));
      assert.equal(row2?.userId, me.user.id);
      assert.deepEqual(row2?.customFields, { Kept: 'yes' });
      const proto = await t.app.inject({
        method: 'POST',
        url: '/api/profile/create',
        headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json' },
        payload: '{"profile":{"full_name":"Proto Patient","age":"40","__proto__":{"polluted":"yes"}}}',
      });
      assert.ok([201, 400].includes(proto.statusCode));
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      for (const p of await listOf(me)) assert.equal(Object.hasOwn(p.profile, '__proto__'), false);
    });

    test('profile.list pages newest first without gaps or repeats, ties included', async () => {
      const u = await createUser(t.deps);
      const same = new Date('2025-01-01T00:00:00Z');
      const made = [];
      for (let i = 0; i < 5; i++)
        made.push(
          await createProfile(t.deps, u.user.id, { createdAt: i < 3 ? same : new Date(same.getTime() + i * 1000) }),
        );
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const r = await trpc(t.app, 'query', 'profile.list', u.token, { limit: 2, cursor });
        const d = r.data as { items: { id: string }[]; nextCursor: string | null };
        seen.push(...d.items.map((x) => x.id));
        cursor = d.nextCursor;
      } while (cursor);
      assert.equal(seen.length, 5);
      assert.deepEqual(new Set(seen), new Set(made.map((m) => m.id)));
      assert.deepEqual(
        seen,
        (await listOf(u)).map((p) => p.profile_id),
      );
      assert.equal(seen[0], made[4]?.id);
      const bad = await trpc(t.app, 'query', 'profile.list', u.token, { cursor: 'garbage' });
      assert.equal(bad.status, 400);
    });

    test('every create, read, update and delete is audited with ids only', async () => {
      const u = await createUser(t.deps);
      const c = await trpc(t.app, 'mutation', 'profile.create', u.token, {
        patientName: 'Audited Patient',
        age: 44,
        additionalFields: [{ key: 'Secret', value: 'diagnosis-xyz' }],
      });
      const id = (c.data as { id: string }).id;
      await trpc(t.app, 'query', 'profile.get', u.token, { profileId: id });
      await rest(t.app, 'GET', `/api/profile/${u.user.id}`, u.token);
      await rest(t.app, 'PUT', `/api/profile/${u.user.id}/${id}`, u.token, {
        profile: { full_name: 'Audited Patient', age: '45' },
      });
      await rest(t.app, 'DELETE', `/api/profile/${u.user.id}/${id}`, u.token);
      await trpc(t.app, 'query', 'profile.get', u.token, { profileId: id });
      const rows = await t.deps.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.actorUserId, u.user.id))
        .orderBy(auditLog.id);
      assert.deepEqual(
        rows.map((r) => [r.action, r.objectId, r.outcome]),
        [
          ['profile.create', null, 'success'],
          ['profile.read', id, 'success'],
          ['profile.list', null, 'success'],
          ['profile.update', id, 'success'],
          ['profile.delete', id, 'success'],
          ['profile.read', id, 'failure'],
        ],
      );
      assert.deepEqual(rows[0]?.details, { profileId: id });
      assert.doesNotMatch(JSON.stringify(rows), /Audited|diagnosis-xyz|Secret/);
    });
  });
}
