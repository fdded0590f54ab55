import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { storedImages } from '../../server/src/db/schema.js';
import { uploadDir } from '@contracts/config/base-config.js';
import { contentKey, ImageNotFoundError } from '@contracts/image-store.js';
import { S3ImageStore } from '@common/storage/s3-image-store.js';
import { sha256Hex } from '../../server/src/lib/tokens.js';
import { createUser } from '../helpers/factories.js';
import { createTestApp } from '../helpers/test-app.js';
import { testConfig } from '../helpers/test-config.js';
import { radiograph, uploadBody } from '../analysis/support/fixtures.js';
import { postMultipart } from '../helpers/post-multipart.js';

const BUCKET = 'cxr-images';

/** s3rver (an S3-compatible server) in its own process, on a free port, with one bucket. */
async function startS3(dir: string): Promise<{ endpoint: string; proc: ChildProcess }> {
  const script = `
    const S3rver = require('s3rver');
    new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: ${JSON.stringify(dir)}, configureBuckets: [{ name: ${JSON.stringify(BUCKET)} }] })
      .run().then((a) => console.log(JSON.stringify(a)));`;
  const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    proc.stdout!.once('data', (d: Buffer) => resolve(d.toString()));
    proc.once('exit', (code) => reject(new Error(`s3rver exited ${code}`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, proc };
}

describe('S3 image storage against a real S3-compatible server', () => {
  let s3: { endpoint: string; proc: ChildProcess };
  const dir = mkdtempSync(join(tmpdir(), 's3rver-'));
  const s3Env = () => ({
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  });

  beforeAll(async () => {
    s3 = await startS3(dir);
  });
  afterAll(async () => {
    s3.proc.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  });

  test('put, exists, get and delete round-trip the bytes', async () => {
    const store = new S3ImageStore(testConfig(s3Env()));
    const data = await radiograph({ side: 128 });
    const key = contentKey(sha256Hex(data));
    assert.equal(await store.exists(key), false);
    await store.put(key, data, 'image/jpeg');
    assert.equal(await store.exists(key), true);
    assert.ok((await store.get(key)).equals(data));
    await store.delete(key);
    assert.equal(await store.exists(key), false);
    await assert.rejects(store.get(key));
  });

  test("a missing key is an ImageNotFoundError, not the SDK's NoSuchKey (D11)", async () => {
    const store = new S3ImageStore(testConfig(s3Env()));
    await assert.rejects(store.get(contentKey('f'.repeat(64))), ImageNotFoundError);
  });

  test('an upload through the app with S3 configured lands in the bucket, not on local disk', async () => {
    const t = await createTestApp({ env: s3Env() });
    try {
      const u = await createUser(t.deps);
      const body = uploadBody(await radiograph({ side: 300 }));
      const res = await postMultipart(t.app, '/api/chat/upload', body, u.token);
      assert.equal(res.statusCode, 202, res.body);
      const [img] = await t.deps.db.select().from(storedImages).where(eq(storedImages.userId, u.user.id));
      assert.ok(img);
      assert.equal(await t.deps.images.exists(img.storageKey), true);
      const local = await readdir(uploadDir(t.deps.config)).catch(() => []);
      assert.equal(local.length, 0, 'nothing written to the local upload directory');
      const other = new S3ImageStore(testConfig(s3Env()));
      assert.equal((await other.get(img.storageKey)).length, img.bytes, 'another host (a worker) can read it');
    } finally {
      await t.close();
    }
  });
});
