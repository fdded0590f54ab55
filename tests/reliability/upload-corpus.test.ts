import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { analyses, storedImages } from '../../server/src/db/schema.js';
import { createUser } from '../helpers/factories.js';
import { postMultipart } from '../helpers/post-multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testPatientName } from '../helpers/test-patients.js';
import { rowCounts } from './backup-seed.js';
import { APPENDED_HTML, buildUploadCorpus, EXIF_SECRET, multipartBody, type TCorpusItem } from './upload-corpus.js';

describe('hostile upload corpus: each file refused with a clear message or safely re-encoded', () => {
  let t: TestApp;
  let token: string;
  let corpus: TCorpusItem[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_DISABLED: 'true' } });
    ({ token } = await createUser(t.deps));
    corpus = await buildUploadCorpus();
  });
  afterAll(async () => {
    await t.deps.analysisQueue.obliterate({ force: true }).catch(() => undefined);
    await t.close();
  });

  const upload = (item: TCorpusItem) => {
    const body = multipartBody(item, { full_name: testPatientName('Upload'), age: '50', medical_history: 'None' });
    return postMultipart(t.app, '/api/chat/upload', body, token);
  };

  test('the corpus covers every hostile kind', async () => {
    const c = await buildUploadCorpus();
    assert.equal(c.length, 14);
    assert.ok(c.find((i) => i.name.includes('pixel bomb'))!.data.length < 200, 'the bomb is crafted, not allocated');
    const exif = await sharp(c.find((i) => i.name.includes('EXIF'))!.data).metadata();
    assert.ok(
      (exif.exif?.length ?? 0) > 50_000 && exif.exif!.toString('latin1').includes(EXIF_SECRET),
      'the input really carries a big EXIF block',
    );
    assert.equal((await sharp(c.find((i) => i.name === 'CMYK JPEG')!.data).metadata()).space, 'cmyk');
    assert.equal((await sharp(c.find((i) => i.name.includes('16-bit'))!.data).metadata()).depth, 'ushort');
  });

  for (const name of [
    'zero bytes',
    'truncated JPEG',
    'truncated PNG',
    'wrong magic bytes (JPEG body, first bytes zeroed)',
    'GIF',
    '20000x20000 pixel bomb PNG',
    'SVG with script',
    'PDF renamed to .jpg',
    'HTML labelled image/png',
  ]) {
    test(`refused: ${name}, nothing half-made`, async () => {
      const item = corpus.find((i) => i.name === name)!;
      assert.ok('refused' in item.expect);
      const beforeRows = await rowCounts(t.deps.db);
      const res = await upload(item);
      assert.equal(res.statusCode, item.expect.refused.status, res.body);
      assert.deepEqual(
        { success: res.json().success, message: res.json().message },
        { success: false, message: item.expect.refused.message },
      );
      const afterRows = await rowCounts(t.deps.db);
      for (const table of ['chats', 'messages', 'analyses', 'stored_images'])
        assert.equal(afterRows[table], beforeRows[table], `${table} unchanged`);
    });
  }

  for (const name of [
    'polyglot: JPEG + appended HTML and ZIP',
    'polyglot: PNG + appended HTML',
    'CMYK JPEG',
    '16-bit greyscale PNG',
    'JPEG with a ~60 KB EXIF block (patient name, GPS)',
  ]) {
    test(`re-encoded: ${name}: the stored file is a clean image without metadata or trailing bytes`, async () => {
      const item = corpus.find((i) => i.name === name)!;
      const res = await upload(item);
      assert.equal(res.statusCode, 202, res.body);
      const analysisId = res.json().data.analysis_id as string;
      const [row] = await t.deps.db
        .select({ key: storedImages.storageKey, mediaType: storedImages.mediaType })
        .from(analyses)
        .innerJoin(storedImages, eq(storedImages.id, analyses.imageId))
        .where(eq(analyses.id, analysisId));
      assert.ok(row);
      const stored = await t.deps.images.get(row.key);
      assert.notDeepEqual(stored, item.data, 'stored bytes are a re-encoding, not the upload');
      const meta = await sharp(stored).metadata();
      assert.equal(meta.exif, undefined, 'no EXIF');
      assert.equal(meta.xmp, undefined, 'no XMP');
      assert.ok(meta.width === 96 && meta.height === 96, 'pixels kept');
      const text = stored.toString('latin1');
      for (const needle of [APPENDED_HTML, '<script', 'PK\x03\x04', EXIF_SECRET])
        assert.ok(!text.includes(needle), `no ${JSON.stringify(needle)} in the stored file`);
      if (row.mediaType === 'image/jpeg')
        assert.deepEqual([...stored.subarray(-2)], [0xff, 0xd9], 'ends at the JPEG end marker');
      else assert.equal(stored.subarray(-8, -4).toString('latin1'), 'IEND', 'ends at the PNG IEND chunk');
      await sharp(stored, { failOn: 'error' }).raw().toBuffer(); // decodes cleanly
    });
  }
});
