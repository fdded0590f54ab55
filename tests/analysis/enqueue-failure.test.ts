import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { startPrivateRedis } from '../../scripts/lib/private-redis.js';
import { chats, storedImages } from '../../server/src/db/schema.js';
import { uploadDir } from '@contracts/config/base-config.js';
import { ANALYSIS_MESSAGES } from '@contracts/schemas/analysis.js';
import { bearer, createUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { radiograph, uploadBody } from './support/fixtures.js';

/**
 * Redis that is connected but does not answer (CLIENT PAUSE on a private instance, so no other
 * test is affected): the chat, message, analysis, image row and file are already written when
 * the enqueue times out, and all of them must be removed again.
 */
describe('enqueue failure after the rows were written', () => {
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'cxr-redis-'));

  beforeAll(async () => {
    redis = await startPrivateRedis(dir);
    // The global rate limiter stays on: a paused Redis must not stall it either.
    t = await createTestApp({ env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('503 within about a second and nothing left: no chat, no image row, no file', async () => {
    const u = await createUser(t.deps);
    const body = uploadBody(await radiograph({ index: 6 }));
    const admin = new Redis(redis.url);
    await admin.call('CLIENT', 'PAUSE', '3000', 'WRITE');
    try {
      const started = Date.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/chat/upload',
        payload: body.payload,
        headers: { ...body.headers, ...bearer(u.token) },
      });
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().message, ANALYSIS_MESSAGES.queueDown);
      assert.ok(Date.now() - started < 2500, `took ${Date.now() - started} ms`);
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
      admin.disconnect();
    }
    assert.equal((await t.deps.db.select().from(chats).where(eq(chats.userId, u.user.id))).length, 0);
    assert.equal((await t.deps.db.select().from(storedImages).where(eq(storedImages.userId, u.user.id))).length, 0);
    const files = await readdir(uploadDir(t.deps.config), { recursive: true, withFileTypes: true }).catch(() => []);
    assert.equal(files.filter((f) => f.isFile()).length, 0);
  });
});
