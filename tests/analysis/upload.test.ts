import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { analyses, chats, messages, storedImages } from '../../server/src/db/schema.js';
import { uploadDir } from '@contracts/config/base-config.js';
import { ANALYSIS_MESSAGES } from '@contracts/schemas/analysis.js';
import { bearer, createProfile, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { PATIENT, radiograph, uploadBody } from './support/fixtures.js';
import { multipart } from '../helpers/post-multipart.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

for (const backend of testBackends()) {
  describe(`analysis upload on ${backend}`, () => {
    let t: TestApp;
    let u: TTestUser;
    const post = (
      body: { payload: Buffer; headers: Record<string, string> },
      token = u.token,
      url = '/api/chat/upload',
    ) => t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...bearer(token) } });
    const counts = async (userId: string) => ({
      chats: (await t.deps.db.select().from(chats).where(eq(chats.userId, userId))).length,
      images: (await t.deps.db.select().from(storedImages).where(eq(storedImages.userId, userId))).length,
      files: (await filesUnder(uploadDir(t.deps.config))).length,
    });

    beforeAll(async () => {
      // No worker runs here: the spec's analyzer call gives up waiting after 300 ms (202).
      t = await createTestApp({ backend, env: { ANALYSIS_WAIT_MS: '300' } });
      u = await createUser(t.deps);
    });
    afterAll(async () => {
      await t.close();
    });

    test('an accepted upload stores a clean image, the chat, the first message and a queued analysis, and enqueues ids only', async () => {
      const profile = await createProfile(t.deps, u.user.id);
      const res = await post(
        uploadBody(await radiograph({ exif: true }), PATIENT, [{ name: 'profile_id', value: profile.id }]),
      );
      assert.equal(res.statusCode, 202, res.body);
      const { chat_id, analysis_id, status } = res.json().data;
      assert.equal(status, 'queued');
      const [chat] = await t.deps.db.select().from(chats).where(eq(chats.id, chat_id));
      assert.equal(chat?.title, 'Ada Example - X-Ray Analysis');
      assert.deepEqual(chat?.patient, {
        full_name: 'Ada Example',
        age: '34',
        medical_history: PATIENT.medical_history,
      });
      assert.equal(chat?.profileId, profile.id);
      const msgs = await t.deps.db.select().from(messages).where(eq(messages.chatId, chat_id));
      assert.equal(msgs.length, 1);
      assert.equal(msgs[0]?.role, 'user');
      assert.equal(msgs[0]?.imageId, chat?.imageId);
      const [analysis] = await t.deps.db.select().from(analyses).where(eq(analyses.id, analysis_id));
      assert.equal(analysis?.status, 'queued');
      const [image] = await t.deps.db.select().from(storedImages).where(eq(storedImages.id, chat!.imageId!));
      assert.match(image!.storageKey, /^img\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
      const stored = await t.deps.images.get(image!.storageKey);
      const meta = await sharp(stored).metadata();
      assert.equal(meta.exif, undefined, 'EXIF must be stripped');
      assert.equal(stored.includes(Buffer.from('Jane Patient')), false);
      const job = await t.deps.analysisQueue.getJob(analysis_id);
      assert.ok(job, 'job enqueued under the analysis id');
      // Ids only: since issue 47 the job names the registry model that must run it.
      assert.deepEqual(Object.keys(job.data as object).sort(), ['analysisId', 'mediaType', 'modelId', 'storageKey']);
      assert.equal((job.data as { modelId: string }).modelId, 'shipped');
      assert.equal(job.opts.attempts, 3);
      assert.equal(JSON.stringify(job.data).includes('Ada'), false);
    });

    test("a DICOM film's AP/PA ViewPosition travels with the job (it wins over the model's projection); a lateral one does not", async () => {
      for (const [view, expected] of [
        ['AP', 'AP'],
        ['LL', undefined],
      ] as const) {
        const dx = await buildDxInstance({ view, index: 2 });
        const res = await post(uploadBody(dx.bytes));
        assert.equal(res.statusCode, 202, res.body);
        const job = await t.deps.analysisQueue.getJob(res.json().data.analysis_id as string);
        assert.equal((job?.data as { viewPosition?: string }).viewPosition, expected, view);
        assert.equal(JSON.stringify(job?.data).includes('TESTCASE'), false, 'no patient data in the job');
      }
    });

    test('POST /api/chat/analyzer answers 202 with the chat id once ANALYSIS_WAIT_MS has passed', async () => {
      const started = Date.now();
      const res = await post(uploadBody(await radiograph({ index: 5 })), u.token, '/api/chat/analyzer');
      assert.equal(res.statusCode, 202, res.body);
      assert.equal(res.json().success, true);
      assert.equal(res.json().data.status, 'queued');
      assert.match(res.json().data.chat_id, /^[0-9a-f-]{36}$/);
      assert.ok(Date.now() - started >= 300);
    });

    test('missing name and history default to Unknown and None', async () => {
      const res = await post(uploadBody(await radiograph({ index: 1 }), {}));
      assert.equal(res.statusCode, 202, res.body);
      const [chat] = await t.deps.db.select().from(chats).where(eq(chats.id, res.json().data.chat_id));
      assert.equal(chat?.title, 'Unknown - X-Ray Analysis');
      assert.equal(chat?.patient.medical_history, 'None');
    });

    test('refusals carry the spec messages and leave nothing behind', async () => {
      const v = await createUser(t.deps);
      const noImage = await post(multipart([{ name: 'profile', value: JSON.stringify(PATIENT) }]), v.token);
      assert.equal(noImage.statusCode, 400);
      assert.equal(noImage.json().message, ANALYSIS_MESSAGES.imageRequired);
      const text = await post(uploadBody(Buffer.from('hello, I am not an image at all')), v.token);
      assert.equal(text.json().message, ANALYSIS_MESSAGES.invalidType);
      const gif = await post(
        uploadBody(
          await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
            .gif()
            .toBuffer(),
        ),
        v.token,
      );
      assert.equal(gif.json().message, ANALYSIS_MESSAGES.invalidType);
      const jpeg = await radiograph();
      const truncated = await post(uploadBody(jpeg.subarray(0, Math.floor(jpeg.length / 2))), v.token);
      assert.equal(truncated.json().message, ANALYSIS_MESSAGES.invalidType);
      const badAge = await post(uploadBody(jpeg, { ...PATIENT, age: 200 }), v.token);
      assert.equal(badAge.statusCode, 400);
      assert.equal(badAge.json().message, 'Please enter a valid age (1-150)');
      const analyzer = await post(multipart([]), v.token, '/api/chat/analyzer');
      assert.equal(analyzer.json().message, ANALYSIS_MESSAGES.imageRequired);
      assert.deepEqual(await counts(v.user.id), { chats: 0, images: 0, files: (await counts(u.user.id)).files });
    });

    test('an image over 10 MB is cut off with 413 and leaves no file or row', async () => {
      const v = await createUser(t.deps);
      const before = (await filesUnder(uploadDir(t.deps.config))).length;
      const big = Buffer.concat([await radiograph(), Buffer.alloc(10 * 1024 * 1024 + 10, 7)]);
      const res = await post(uploadBody(big), v.token);
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().message, ANALYSIS_MESSAGES.tooLarge);
      assert.equal((await filesUnder(uploadDir(t.deps.config))).length, before);
      assert.equal((await counts(v.user.id)).chats, 0);
    });

    test('a decompression bomb (huge pixel count, tiny file) is refused', async () => {
      const bomb = await sharp({ create: { width: 10_000, height: 6_000, channels: 3, background: '#000' } })
        .greyscale()
        .png({ compressionLevel: 9 })
        .toBuffer();
      assert.ok(bomb.length < 1024 * 1024);
      const res = await post(uploadBody(bomb));
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().message, ANALYSIS_MESSAGES.tooManyPixels);
    });

    test("requires authentication, and another user's profile id answers not found", async () => {
      const body = uploadBody(await radiograph());
      const anon = await t.app.inject({
        method: 'POST',
        url: '/api/chat/analyzer',
        payload: body.payload,
        headers: body.headers,
      });
      assert.equal(anon.statusCode, 401);
      const other = await createUser(t.deps);
      const foreign = await createProfile(t.deps, other.user.id);
      const res = await post(uploadBody(await radiograph(), PATIENT, [{ name: 'profile_id', value: foreign.id }]));
      assert.equal(res.statusCode, 404);
    });

    test('Redis down: 503 within about a second, and nothing half-made', async () => {
      const v = await createUser(t.deps);
      const body = uploadBody(await radiograph({ index: 2 }));
      const filesBefore = (await filesUnder(uploadDir(t.deps.config))).length;
      t.deps.redis.disconnect();
      try {
        const started = Date.now();
        const res = await post(body, v.token, '/api/chat/analyzer');
        assert.equal(res.statusCode, 503);
        assert.equal(res.json().message, ANALYSIS_MESSAGES.queueDown);
        assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
      } finally {
        await t.deps.redis.connect().catch(() => undefined);
      }
      assert.equal((await counts(v.user.id)).chats, 0);
      assert.equal((await counts(v.user.id)).images, 0);
      assert.equal((await filesUnder(uploadDir(t.deps.config))).length, filesBefore);
    });
  });
}
