import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { analyses, chats, messages, storedImages } from '../../server/src/db/schema.js';
import { INIT_INFO_CHAT_CAP } from '../../server/src/services/history/get-init-info.js';
import { createChat, createProfile, createUser, pngBytes, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { rest, trpc, TEST_ENV } from './http.js';

interface TLegacyChat {
  chat_id: string;
  title: string;
  image_url: string | null;
  created_at: string;
  updated_at: string;
  profile: { full_name: string; age: string; medical_history: string };
  messages: { role: string; content: string; timestamp: string; disease: string | null; image_url: string | null }[];
}
interface TSummary {
  id: string;
  title: string;
  patientName: string;
  profileId: string | null;
  imageUrl: string | null;
  createdAt: string;
  updatedAt: string;
  latestAnalysis: { id: string; status: string; stage: string } | null;
}
interface TMessage {
  id: string;
  role: string;
  content: string;
  disease: string | null;
  imageUrl: string | null;
  createdAt: string;
}

for (const backend of testBackends()) {
  describe(`chat history on ${backend}`, () => {
    let t: TestApp;
    let me: TTestUser;
    const initInfo = async (u: TTestUser) => {
      const r = await rest(t.app, 'GET', '/api/history/get-init-info', u.token);
      assert.equal(r.status, 200);
      const b = r.body as { success: boolean; data: { chats: TLegacyChat[] } };
      assert.deepEqual(Object.keys(b).sort(), ['data', 'success']);
      assert.equal(b.success, true);
      return b.data.chats;
    };
    const list = async (u: TTestUser, input: object = {}) =>
      (await trpc(t.app, 'query', 'history.list', u.token, input)).data as {
        items: TSummary[];
        nextCursor: string | null;
      };

    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
      me = await createUser(t.deps);
    });
    afterAll(async () => {
      await t.close();
    });

    test('get-init-info answers the spec shape newest first; tRPC list and get carry the same fields', async () => {
      const u = await createUser(t.deps);
      const profile = await createProfile(t.deps, u.user.id, {
        fullName: 'Marie Curie',
        age: 66,
        customFields: { Smoker: 'no', Cough: 'dry' },
      });
      const older = await createChat(t.deps, u.user.id, { createdAt: new Date(Date.now() - 60_000) });
      const newer = await createChat(t.deps, u.user.id, {
        profile,
        withImage: true,
        withMessages: true,
        analysisStatus: 'completed',
      });
      const chatsOut = await initInfo(u);
      assert.deepEqual(
        chatsOut.map((c) => c.chat_id),
        [newer.chat.id, older.chat.id],
      );
      const c = chatsOut[0];
      assert.ok(c && newer.image && newer.heatmap);
      assert.deepEqual(Object.keys(c).sort(), [
        'chat_id',
        'created_at',
        'image_url',
        'messages',
        'profile',
        'title',
        'updated_at',
      ]);
      assert.equal(c.title, 'Marie Curie - X-Ray Analysis');
      assert.equal(c.image_url, `/api/images/${newer.image.id}`);
      assert.equal(c.created_at, newer.chat.createdAt.toISOString());
      assert.equal(c.updated_at, newer.chat.updatedAt.toISOString());
      assert.deepEqual(c.profile, { full_name: 'Marie Curie', age: '66', medical_history: 'Cough: dry; Smoker: no' });
      assert.deepEqual(c.messages, [
        {
          role: 'user',
          content: 'Patient: Marie Curie',
          timestamp: newer.messages[0]?.createdAt.toISOString(),
          disease: null,
          image_url: `/api/images/${newer.image.id}`,
        },
        {
          role: 'assistant',
          content: 'Message 1',
          timestamp: newer.messages[1]?.createdAt.toISOString(),
          disease: 'Pneumonia',
          image_url: `/api/images/${newer.heatmap.id}`,
        },
      ]);
      assert.deepEqual(chatsOut[1]?.messages, []);
      assert.equal(chatsOut[1]?.image_url, null);

      const page = await list(u);
      assert.deepEqual(
        page.items.map((s) => s.id),
        chatsOut.map((x) => x.chat_id),
      );
      const s = page.items[0];
      assert.ok(s && newer.analysis);
      assert.deepEqual(s, {
        id: c.chat_id,
        title: c.title,
        patientName: c.profile.full_name,
        profileId: profile.id,
        imageUrl: c.image_url,
        createdAt: c.created_at,
        updatedAt: c.updated_at,
        latestAnalysis: { id: newer.analysis.id, status: 'completed', stage: 'completed' },
      });
      assert.equal(page.items[1]?.latestAnalysis, null);
      assert.equal(page.nextCursor, null);

      const one = await trpc(t.app, 'query', 'history.get', u.token, { chatId: c.chat_id });
      const d = one.data as {
        chat: TSummary & { patientAge: string; medicalHistory: string };
        messages: TMessage[];
        olderCursor: string | null;
      };
      assert.deepEqual(d.chat, { ...s, patientAge: c.profile.age, medicalHistory: c.profile.medical_history });
      assert.deepEqual(
        d.messages.map((m) => ({
          role: m.role,
          content: m.content,
          timestamp: m.createdAt,
          disease: m.disease,
          image_url: m.imageUrl,
        })),
        c.messages,
      );
      assert.deepEqual(
        d.messages.map((m) => m.id),
        newer.messages.map((m) => m.id),
      );
      assert.equal(d.olderCursor, null);
    });

    test("the image route streams the owner's X-ray with safe headers", async () => {
      const data = await pngBytes();
      const { image } = await createChat(t.deps, me.user.id, { withImage: { data }, withMessages: true });
      assert.ok(image);
      const r = await rest(t.app, 'GET', `/api/images/${image.id}`, me.token);
      assert.equal(r.status, 200);
      assert.deepEqual(r.res.rawPayload, data);
      assert.equal(r.res.headers['content-type'], 'image/png');
      assert.equal(r.res.headers['content-disposition'], `inline; filename="xray-${image.id}.png"`);
      assert.equal(r.res.headers['x-content-type-options'], 'nosniff');
      assert.equal(r.res.headers['cache-control'], 'private, no-store');
      const cookie = await t.app.inject({
        method: 'GET',
        url: `/api/images/${image.id}`,
        cookies: { token: me.token },
      });
      assert.equal(cookie.statusCode, 200, 'an <img> tag sends the session cookie');
    });

    test('history.list pages through many chats newest first, same-instant ties included', async () => {
      const u = await createUser(t.deps);
      const base = Date.now() - 3600_000;
      const made: string[] = [];
      for (let i = 0; i < 23; i++)
        made.push(
          (await createChat(t.deps, u.user.id, { createdAt: new Date(base + Math.floor(i / 3) * 1000) })).chat.id,
        );
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const p = await list(u, { limit: 5, cursor });
        assert.ok(p.items.length <= 5);
        seen.push(...p.items.map((s) => s.id));
        cursor = p.nextCursor;
        pages++;
      } while (cursor);
      assert.equal(pages, 5);
      assert.equal(seen.length, 23);
      assert.deepEqual(new Set(seen), new Set(made));
      assert.deepEqual(
        seen,
        (await initInfo(u)).map((c) => c.chat_id),
        'the same order as get-init-info',
      );
      const times = seen.map((id) => made.indexOf(id));
      assert.ok(Math.floor(times[0]! / 3) === 7 && Math.floor(times[22]! / 3) === 0, 'newest first');
      assert.equal((await trpc(t.app, 'query', 'history.list', u.token, { cursor: 'not-a-cursor' })).status, 400);
    });

    test('history.get pages messages backwards from the newest, in display order', async () => {
      const { chat, messages: all } = await createChat(t.deps, me.user.id, { withMessages: 9 });
      const got: string[][] = [];
      let cursor: string | null = null;
      do {
        const r = await trpc(t.app, 'query', 'history.get', me.token, { chatId: chat.id, limit: 4, cursor });
        const d = r.data as { messages: TMessage[]; olderCursor: string | null };
        got.push(d.messages.map((m) => m.id));
        cursor = d.olderCursor;
      } while (cursor);
      const ids = all.map((m) => m.id);
      assert.deepEqual(got, [ids.slice(5, 9), ids.slice(1, 5), ids.slice(0, 1)]);
    });

    test('get-init-info is capped at the newest INIT_INFO_CHAT_CAP chats, each with its messages', async () => {
      const u = await createUser(t.deps);
      const base = Date.now() - 86_400_000;
      const rows = Array.from({ length: INIT_INFO_CHAT_CAP + 5 }, (_, i) => ({
        userId: u.user.id,
        title: `Chat ${i}`,
        patient: { full_name: 'Bulk Patient', age: '30', medical_history: 'None' },
        createdAt: new Date(base + i * 1000),
      }));
      const inserted = await t.deps.db.insert(chats).values(rows).returning({ id: chats.id });
      await t.deps.db
        .insert(messages)
        .values(inserted.map((c) => ({ chatId: c.id, role: 'user' as const, content: 'hello' })));
      const out = await initInfo(u);
      assert.equal(out.length, INIT_INFO_CHAT_CAP);
      assert.equal(out[0]?.title, `Chat ${INIT_INFO_CHAT_CAP + 4}`);
      assert.ok(out.every((c) => c.messages.length === 1));
    });

    test('edit-title trims, refuses an empty title, and answers the same through tRPC', async () => {
      const { chat } = await createChat(t.deps, me.user.id);
      const r = await rest(t.app, 'PUT', '/api/history/edit-title', me.token, {
        chat_id: chat.id,
        title: '  Follow-up visit  ',
      });
      assert.equal(r.status, 200);
      const b = r.body as {
        success: boolean;
        message: string;
        data: { chat_id: string; title: string; updated_at: string };
      };
      assert.equal(b.success, true);
      assert.equal(b.message, 'Chat title updated');
      assert.equal(b.data.title, 'Follow-up visit');
      assert.ok(b.data.updated_at > chat.updatedAt.toISOString());
      for (const title of ['', '   ']) {
        const bad = await rest(t.app, 'PUT', '/api/history/edit-title', me.token, { chat_id: chat.id, title });
        assert.equal(bad.status, 400);
        assert.deepEqual(bad.body, { success: false, message: 'Chat title cannot be empty', code: 'BAD_REQUEST' });
        const badTrpc = await trpc(t.app, 'mutation', 'history.editTitle', me.token, { chatId: chat.id, title });
        assert.equal(badTrpc.status, 400);
        assert.equal(badTrpc.error?.message, 'Chat title cannot be empty');
      }
      const ok = await trpc(t.app, 'mutation', 'history.editTitle', me.token, { chatId: chat.id, title: ' Renamed ' });
      assert.equal((ok.data as { title: string }).title, 'Renamed');
      const [row] = await t.deps.db.select({ title: chats.title }).from(chats).where(eq(chats.id, chat.id));
      assert.equal(row?.title, 'Renamed');
    });

    test('delete removes the chat, its messages, analyses and image files, but keeps a file another row still uses', async () => {
      const shared = await pngBytes();
      const a = await createChat(t.deps, me.user.id, {
        withImage: { data: shared },
        withMessages: true,
        analysisStatus: 'completed',
      });
      const b = await createChat(t.deps, me.user.id, { withImage: { data: shared }, withMessages: true });
      assert.ok(a.image && a.heatmap && b.image);
      assert.equal(a.image.storageKey, b.image.storageKey, 'content-addressed: same bytes, same key');
      const r = await rest(t.app, 'DELETE', '/api/history/delete', me.token, { chat_id: a.chat.id });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { success: true, message: 'Chat deleted successfully' });
      assert.equal((await t.deps.db.select().from(messages).where(eq(messages.chatId, a.chat.id))).length, 0);
      assert.equal((await t.deps.db.select().from(analyses).where(eq(analyses.chatId, a.chat.id))).length, 0);
      assert.equal(
        (
          await t.deps.db
            .select()
            .from(storedImages)
            .where(inArray(storedImages.id, [a.image.id, a.heatmap.id]))
        ).length,
        0,
      );
      assert.equal(await t.deps.images.exists(a.heatmap.storageKey), false, 'an unshared file is deleted');
      assert.equal(await t.deps.images.exists(b.image.storageKey), true, 'a shared file stays');
      assert.equal((await rest(t.app, 'GET', `/api/images/${b.image.id}`, me.token)).status, 200);
      assert.equal((await trpc(t.app, 'query', 'history.get', me.token, { chatId: a.chat.id })).status, 404);

      const viaTrpc = await trpc(t.app, 'mutation', 'history.delete', me.token, { chatId: b.chat.id });
      assert.equal(viaTrpc.status, 200);
      assert.equal(await t.deps.images.exists(b.image.storageKey), false, 'the last reference gone, the file goes');
      assert.equal((await rest(t.app, 'DELETE', '/api/history/delete', me.token, { chat_id: b.chat.id })).status, 404);
    });
  });
}
