import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { storedImages } from '../../server/src/db/schema.js';
import type { ImageStore } from '@contracts/image-store.js';
import { LocalImageStore } from '@common/storage/local-image-store.js';
import { createUser } from '../helpers/factories.js';
import { CXR_FIXTURE } from '../helpers/fault-procs.js';
import { postMultipart } from '../helpers/post-multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { rowCounts } from './backup-seed.js';
import { multipartBody } from './upload-corpus.js';

/** Storage whose writes fail the way a full disk does; reads still work. */
class FullDiskStore implements ImageStore {
  constructor(private readonly inner: ImageStore) {}
  put(): Promise<void> {
    return Promise.reject(
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 }),
    );
  }
  get(key: string) {
    return this.inner.get(key);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  exists(key: string) {
    return this.inner.exists(key);
  }
}

describe('fault injection: image storage full or unwritable', () => {
  let t: TestApp;
  let token: string;
  let real: ImageStore;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_DISABLED: 'true' } });
    ({ token } = await createUser(t.deps));
    real = t.deps.images;
  });
  afterAll(async () => {
    t.deps.images = real;
    await t.deps.analysisQueue.obliterate({ force: true }).catch(() => undefined);
    await t.close();
  });

  const upload = () => {
    const body = multipartBody(
      { filename: 'x.jpg', contentType: 'image/jpeg', data: readFileSync(CXR_FIXTURE) },
      { full_name: 'Zqxpatient Storage', age: '40' },
    );
    return postMultipart(t.app, '/api/chat/upload', body, token);
  };

  /** Every stored_images row must name a file that exists. */
  async function noDanglingRows(): Promise<void> {
    for (const row of await t.deps.db.select({ key: storedImages.storageKey }).from(storedImages)) {
      assert.ok(await real.exists(row.key), `row points at missing file ${row.key}`);
    }
  }

  for (const [name, makeStore] of [
    ['a full disk (ENOSPC)', () => new FullDiskStore(real)],
    // Root ignores file modes, so "unwritable" is made real another way: a file where the store needs a directory.
    [
      'an unwritable directory',
      () => {
        const root = join(t.deps.config.DATA_DIR, 'blocked');
        writeFileSync(root, 'not a directory');
        return new LocalImageStore(join(root, 'uploads'));
      },
    ],
  ] as const) {
    test(`${name}: a clear error, no row pointing at a missing file, the process stays up`, async () => {
      const before_ = await rowCounts(t.deps.db);
      t.deps.images = makeStore();
      try {
        const res = await upload();
        assert.ok(res.statusCode >= 500 && res.statusCode < 600, `${res.statusCode}`);
        const body = res.json() as { success: boolean; message: string };
        assert.equal(body.success, false);
        assert.doesNotMatch(body.message, /ENOSPC|ENOTDIR|\/tmp|uploads|errno/i, 'no internals in the message');
        if (name.includes('ENOSPC')) {
          assert.equal(res.statusCode, 503);
          assert.equal(body.message, 'The service is temporarily unavailable. Please try again in a minute.');
        }
        const after_ = await rowCounts(t.deps.db);
        for (const table of ['chats', 'messages', 'analyses', 'stored_images'])
          assert.equal(after_[table], before_[table], `${table} unchanged`);
        await noDanglingRows();
      } finally {
        t.deps.images = real;
      }
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      const ok = await upload();
      assert.equal(ok.statusCode, 202, 'uploads work again once storage does');
      await noDanglingRows();
    });
  }
});
