import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import {
  analyses,
  apiKeys,
  auditLog,
  chats,
  messages,
  passwordResetTokens,
  patientProfiles,
  sessions,
  storedImages,
  users,
} from '../../server/src/db/schema.js';
import { hashToken } from '../../server/src/lib/tokens.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { FAST_HASH_ENV, PASSWORD, randomIp, rest, signUpUser, trpc } from '../auth/auth-helpers.js';
import { seedUserData, storeImage } from './seed-user-data.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

for (const backend of testBackends()) {
  describe(`data deletion on ${backend}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ backend, env: FAST_HASH_ENV });
    });
    afterAll(async () => {
      await t.close();
    });

    async function rowsOf(userId: string, chatIds: string[]) {
      const { db } = t.deps;
      const count = async (p: Promise<unknown[]>) => (await p).length;
      return {
        users: await count(db.select().from(users).where(eq(users.id, userId))),
        sessions: await count(db.select().from(sessions).where(eq(sessions.userId, userId))),
        resetTokens: await count(db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId))),
        apiKeys: await count(db.select().from(apiKeys).where(eq(apiKeys.userId, userId))),
        profiles: await count(db.select().from(patientProfiles).where(eq(patientProfiles.userId, userId))),
        chats: await count(db.select().from(chats).where(eq(chats.userId, userId))),
        messages: chatIds.length ? await count(db.select().from(messages).where(inArray(messages.chatId, chatIds))) : 0,
        analyses: await count(db.select().from(analyses).where(eq(analyses.userId, userId))),
        images: await count(db.select().from(storedImages).where(eq(storedImages.userId, userId))),
      };
    }
    const filesExist = (keys: string[]) => Promise.all(keys.map((k) => t.deps.images.exists(k)));

    test('req 7: clear-chats removes chats, messages, analyses and their image files, and nothing else', async () => {
      const u = await signUpUser(t.app);
      const other = await signUpUser(t.app);
      const mine = await seedUserData(t.deps, u.id);
      const theirs = await seedUserData(t.deps, other.id);
      const r = await rest(t.app, 'POST', '/api/settings/clear-chats', { confirm_clear: true }, { cookie: u.token });
      assert.deepEqual([r.status, r.body], [200, { success: true, message: 'All chats deleted successfully' }]);
      const left = await rowsOf(u.id, mine.chatIds);
      assert.deepEqual([left.chats, left.messages, left.analyses, left.images], [0, 0, 0, 0]);
      assert.equal(left.profiles, 2, 'profiles stay');
      assert.deepEqual(await filesExist(mine.imageKeys), [false, false, false, false]);
      const untouched = await rowsOf(other.id, theirs.chatIds);
      assert.deepEqual([untouched.chats, untouched.messages, untouched.images], [2, 4, 4]);
      assert.deepEqual(await filesExist(theirs.imageKeys), [true, true, true, true]);
    });

    test('req 7: clear-profiles removes profiles; chats keep their own patient snapshot', async () => {
      const u = await signUpUser(t.app);
      const mine = await seedUserData(t.deps, u.id);
      const r = await trpc(t.app, 'mutation', 'settings.clearProfiles', { confirm_clear: true }, { bearer: u.token });
      assert.deepEqual(r.data, { success: true, message: 'All profiles deleted successfully' });
      const left = await rowsOf(u.id, mine.chatIds);
      assert.deepEqual([left.profiles, left.chats, left.images], [0, 2, 4]);
      const linked = await t.deps.db.select({ profileId: chats.profileId }).from(chats).where(eq(chats.userId, u.id));
      assert.deepEqual(
        linked.map((c) => c.profileId),
        [null, null],
      );
    });

    test('clear calls need the explicit confirmation flag', async () => {
      const u = await signUpUser(t.app);
      const r = await rest(
        t.app,
        'POST',
        '/api/settings/clear-profiles',
        { confirm_clear: false },
        { bearer: u.token },
      );
      assert.equal(r.status, 400);
      const d = await rest(t.app, 'POST', '/api/settings/delete-account', { password: PASSWORD }, { bearer: u.token });
      assert.equal(d.status, 400);
    });

    test('req 7: delete-account removes everything of the user, for real, leaving only audit entries without patient data', async () => {
      const u = await signUpUser(t.app);
      const other = await signUpUser(t.app);
      const mine = await seedUserData(t.deps, u.id);
      const theirs = await seedUserData(t.deps, other.id);
      await t.deps.db
        .insert(apiKeys)
        .values({ userId: u.id, name: 'batch', prefix: 'cxr_abcd', keyHash: hashToken('cxr_test_key') });
      await rest(t.app, 'POST', '/api/auth/forgot-password', { email: u.email }, { ip: randomIp() });
      assert.ok((await rowsOf(u.id, mine.chatIds)).resetTokens >= 1);

      const r = await rest(
        t.app,
        'POST',
        '/api/settings/delete-account',
        { confirm_delete: true, password: PASSWORD },
        { cookie: u.token, headers: JSON_HEADERS },
      );
      assert.deepEqual([r.status, r.body], [200, { success: true, message: 'Account deleted successfully' }]);
      assert.match(String(r.res.headers['set-cookie']), /token=;/);

      assert.deepEqual(await rowsOf(u.id, mine.chatIds), {
        users: 0,
        sessions: 0,
        resetTokens: 0,
        apiKeys: 0,
        profiles: 0,
        chats: 0,
        messages: 0,
        analyses: 0,
        images: 0,
      });
      assert.deepEqual(await filesExist(mine.imageKeys), [false, false, false, false]);
      assert.equal((await rest(t.app, 'GET', '/api/auth/me', undefined, { bearer: u.token })).status, 401);
      assert.equal(
        (await rest(t.app, 'POST', '/api/auth/login', { email: u.email, password: PASSWORD }, { ip: randomIp() }))
          .status,
        401,
      );

      const trail = await t.deps.db.select().from(auditLog).where(eq(auditLog.actorUserId, u.id));
      assert.ok(trail.some((e) => e.action === 'account.delete' && e.outcome === 'success'));
      const text = JSON.stringify(trail);
      for (const secret of [u.email, 'Dr Test User', mine.patientName, PASSWORD, u.token]) {
        assert.ok(!text.includes(secret), 'the audit trail holds ids and counts only');
      }
      const untouched = await rowsOf(other.id, theirs.chatIds);
      assert.deepEqual([untouched.users, untouched.profiles, untouched.chats, untouched.images], [1, 2, 2, 4]);
      assert.deepEqual(await filesExist(theirs.imageKeys), [true, true, true, true]);
    });

    test('a file shared with another row (same content) is kept; a file that cannot be deleted is logged, not fatal', async () => {
      const u = await signUpUser(t.app);
      const other = await signUpUser(t.app);
      const bytes = Buffer.from('identical picture bytes');
      const shared = await storeImage(t.deps, u.id, 'upload', bytes);
      await storeImage(t.deps, other.id, 'upload', bytes);
      const mine = await seedUserData(t.deps, u.id);
      const realDelete = t.deps.images.delete.bind(t.deps.images);
      const failing = mine.imageKeys[0] ?? '';
      t.deps.images.delete = async (key) => {
        if (key === failing) throw new Error('disk said no');
        return realDelete(key);
      };
      try {
        const r = await rest(
          t.app,
          'POST',
          '/api/settings/delete-account',
          { confirm_delete: true, password: PASSWORD },
          { bearer: u.token },
        );
        assert.equal(r.status, 200);
      } finally {
        t.deps.images.delete = realDelete;
      }
      assert.equal(await t.deps.images.exists(shared.key), true, "the other user's row still needs this file");
      assert.deepEqual(await filesExist(mine.imageKeys.slice(1)), [false, false, false]);
      assert.equal((await rowsOf(u.id, mine.chatIds)).images, 0, 'rows are gone even where the file delete failed');
    });
  });
}
