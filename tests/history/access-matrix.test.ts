import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { chats, patientProfiles } from '../../server/src/db/schema.js';
import { createChat, createProfile, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { errorShape, rest, trpc, TEST_ENV, type TResult } from './http.js';

/**
 * Every profile, history and image call × {owner, another user, anonymous}. Another user's ids
 * must answer exactly like ids nobody has (same status, same body), and must change nothing.
 */
interface TIds {
  userId: string;
  profileId: string;
  chatId: string;
  imageId: string;
  heatmapId: string;
}
type TActor = 'owner' | 'other' | 'anon';
interface TCase {
  name: string;
  /** Calls with the given ids; `self` is the caller's own user id (for "own id in path" variants). */
  call(t: TestApp, token: string | null, ids: TIds, self: string | null): Promise<TResult>;
  expect: Record<TActor, number>;
  /** For 'other': compare with the same call on ids nobody has. */
  foreignLikeMissing?: boolean;
  /** For 'other' answering 200: the owner's data must not be in it. */
  listing?: boolean;
}

const PROFILE = { full_name: 'Matrix Patient', age: '50', Allergies: 'none' };
const missing = (): TIds => ({
  userId: randomUUID(),
  profileId: randomUUID(),
  chatId: randomUUID(),
  imageId: randomUUID(),
  heatmapId: randomUUID(),
});
const std = { owner: 200, other: 404, anon: 401 };

const cases: TCase[] = [
  {
    name: 'REST POST /api/profile/create',
    expect: { owner: 201, other: 404, anon: 401 },
    foreignLikeMissing: true,
    call: (t, tok, ids) => rest(t.app, 'POST', '/api/profile/create', tok, { user_id: ids.userId, profile: PROFILE }),
  },
  {
    name: 'REST GET /api/profile/{userId}',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => rest(t.app, 'GET', `/api/profile/${ids.userId}`, tok),
  },
  {
    name: 'REST PUT /api/profile/{userId}/{profileId}',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => rest(t.app, 'PUT', `/api/profile/${ids.userId}/${ids.profileId}`, tok, { profile: PROFILE }),
  },
  {
    name: 'REST PUT /api/profile/{own userId}/{profileId}',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids, self) =>
      rest(t.app, 'PUT', `/api/profile/${self ?? ids.userId}/${ids.profileId}`, tok, { profile: PROFILE }),
  },
  {
    name: 'REST DELETE /api/profile/{userId}/{profileId}',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => rest(t.app, 'DELETE', `/api/profile/${ids.userId}/${ids.profileId}`, tok),
  },
  {
    name: 'REST DELETE /api/profile/{own userId}/{profileId}',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids, self) => rest(t.app, 'DELETE', `/api/profile/${self ?? ids.userId}/${ids.profileId}`, tok),
  },
  {
    name: 'REST GET /api/history/get-init-info',
    expect: { owner: 200, other: 200, anon: 401 },
    listing: true,
    call: (t, tok) => rest(t.app, 'GET', '/api/history/get-init-info', tok),
  },
  {
    name: 'REST PUT /api/history/edit-title',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) =>
      rest(t.app, 'PUT', '/api/history/edit-title', tok, { chat_id: ids.chatId, title: 'Renamed' }),
  },
  {
    name: 'REST DELETE /api/history/delete',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => rest(t.app, 'DELETE', '/api/history/delete', tok, { chat_id: ids.chatId }),
  },
  {
    name: 'REST GET /api/images/{x-ray}',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => rest(t.app, 'GET', `/api/images/${ids.imageId}`, tok),
  },
  {
    name: 'REST GET /api/images/{heatmap}',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => rest(t.app, 'GET', `/api/images/${ids.heatmapId}`, tok),
  },
  {
    name: 'tRPC profile.list',
    expect: { owner: 200, other: 200, anon: 401 },
    listing: true,
    call: (t, tok) => trpc(t.app, 'query', 'profile.list', tok, {}),
  },
  {
    name: 'tRPC profile.get',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => trpc(t.app, 'query', 'profile.get', tok, { profileId: ids.profileId }),
  },
  {
    name: 'tRPC profile.create',
    expect: { owner: 200, other: 200, anon: 401 },
    call: (t, tok) => trpc(t.app, 'mutation', 'profile.create', tok, { patientName: 'Matrix Patient', age: 50 }),
  },
  {
    name: 'tRPC profile.update',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) =>
      trpc(t.app, 'mutation', 'profile.update', tok, {
        profileId: ids.profileId,
        profile: { patientName: 'Changed Name', age: 1 },
      }),
  },
  {
    name: 'tRPC profile.delete',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => trpc(t.app, 'mutation', 'profile.delete', tok, { profileId: ids.profileId }),
  },
  {
    name: 'tRPC history.list',
    expect: { owner: 200, other: 200, anon: 401 },
    listing: true,
    call: (t, tok) => trpc(t.app, 'query', 'history.list', tok, {}),
  },
  {
    name: 'tRPC history.get',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => trpc(t.app, 'query', 'history.get', tok, { chatId: ids.chatId }),
  },
  {
    name: 'tRPC history.editTitle',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => trpc(t.app, 'mutation', 'history.editTitle', tok, { chatId: ids.chatId, title: 'Renamed' }),
  },
  {
    name: 'tRPC history.delete',
    expect: std,
    foreignLikeMissing: true,
    call: (t, tok, ids) => trpc(t.app, 'mutation', 'history.delete', tok, { chatId: ids.chatId }),
  },
];

for (const backend of testBackends()) {
  describe(`profile/history/image access matrix on ${backend}`, () => {
    let t: TestApp;
    let owner: TTestUser;
    let other: TTestUser;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: TEST_ENV });
      owner = await createUser(t.deps);
      other = await createUser(t.deps);
    });
    afterAll(async () => {
      await t.close();
    });

    /** Fresh owner data for each call, so a delete in one row cannot affect another. */
    async function ownerData(): Promise<TIds & { title: string; name: string }> {
      const profile = await createProfile(t.deps, owner.user.id);
      const { chat, image, heatmap } = await createChat(t.deps, owner.user.id, {
        profile,
        withImage: true,
        withMessages: true,
        analysisStatus: 'completed',
      });
      assert.ok(image && heatmap);
      return {
        userId: owner.user.id,
        profileId: profile.id,
        chatId: chat.id,
        imageId: image.id,
        heatmapId: heatmap.id,
        title: chat.title,
        name: profile.fullName,
      };
    }

    for (const c of cases) {
      test(`${c.name}: owner ${c.expect.owner}, another user ${c.expect.other}, anonymous ${c.expect.anon}`, async () => {
        for (const actor of ['owner', 'other', 'anon'] as const) {
          const ids = await ownerData();
          const token = actor === 'owner' ? owner.token : actor === 'other' ? other.token : null;
          const self = actor === 'owner' ? owner.user.id : actor === 'other' ? other.user.id : null;
          const r = await c.call(t, token, ids, self);
          assert.equal(r.status, c.expect[actor], `${actor}: ${JSON.stringify(r.body)}`);
          if (actor === 'owner') continue;
          // Nothing of the owner's changed.
          const [p] = await t.deps.db.select().from(patientProfiles).where(eq(patientProfiles.id, ids.profileId));
          const [ch] = await t.deps.db.select().from(chats).where(eq(chats.id, ids.chatId));
          assert.equal(p?.fullName, ids.name, `${actor} changed the profile`);
          assert.equal(ch?.title, ids.title, `${actor} changed the chat`);
          if (actor === 'other' && c.listing) {
            for (const id of [ids.profileId, ids.chatId, ids.imageId])
              assert.ok(!JSON.stringify(r.body).includes(id), `${actor} saw ${id}`);
          }
          if (actor === 'other' && c.foreignLikeMissing) {
            const miss = await c.call(t, token, missing(), self);
            assert.deepEqual(errorShape(r), errorShape(miss), 'a foreign id must answer exactly like a missing one');
            assert.deepEqual(Object.keys(r.res.headers).sort(), Object.keys(miss.res.headers).sort());
          }
        }
      });
    }

    test('a malformed id answers like a missing one', async () => {
      const bad = await rest(t.app, 'GET', '/api/images/not-a-uuid', owner.token);
      const miss = await rest(t.app, 'GET', `/api/images/${randomUUID()}`, owner.token);
      assert.deepEqual(errorShape(bad), errorShape(miss));
      const badChat = await trpc(t.app, 'query', 'history.get', owner.token, { chatId: 'x' });
      const missChat = await trpc(t.app, 'query', 'history.get', owner.token, { chatId: randomUUID() });
      assert.deepEqual(errorShape(badChat), errorShape(missChat));
    });
  });
}
