import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances } from '../../server/src/db/schema.js';
import { createApiKey } from '../../server/src/services/api-key/create-api-key.js';
import { readMultipartRelated } from '../../server/src/services/dicom-node/read-multipart-related.js';
import { STOW_RATE_SPENT } from '../../server/src/services/dicom-node/store-instances.js';
import { STOW_BUSY } from '../../server/src/dicomweb/stow-routes.js';
import { bearer, createUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { related } from '../helpers/stow-body.js';

const MAX_INSTANCE = 60_000;
const PER_MINUTE = 6;

/** Small CT instances: recorded and skipped by the router, no analysis started. */
const smallCt = (i: number) => buildDxInstance({ modality: 'CT', side: 32, patientId: `CT-${i}` });

async function collect(stream: AsyncIterable<Buffer>, boundary: string, maxPartBytes = 1 << 20) {
  const out: { text: string; oversize: boolean }[] = [];
  for await (const p of readMultipartRelated({ stream, boundary, maxPartBytes, maxBodyBytes: 1 << 20 }))
    out.push({ text: p.bytes.toString('latin1'), oversize: p.oversize });
  return out;
}

/** The body in pieces of `size` bytes, as a slow connection delivers it. */
function pieces(body: Buffer, size: number): AsyncIterable<Buffer> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) chunks.push(body.subarray(i, i + size));
  return Readable.from(chunks);
}

describe('readMultipartRelated reads parts as they arrive (issue 36 S7)', () => {
  const body = Buffer.from(
    'preamble\r\n--b\r\nContent-Type: application/dicom\r\n\r\nfirst --b inline\r\n' +
      '--b\r\nContent-Type: text/plain\r\n\r\nskipped\r\n' +
      '--b  \r\n\r\nno headers\r\n' +
      '--b\r\ncontent-type: Application/DICOM; x=1\r\n\r\nlast one, a bit longer\r\n--b--\r\nepilogue',
  );
  const expected = ['first --b inline', 'no headers', 'last one, a bit longer'];

  test('the same parts whatever the chunking, even a delimiter split across chunks', async () => {
    for (const size of [1, 2, 3, 7, 16, 1000]) {
      const parts = await collect(pieces(body, size), 'b');
      assert.deepEqual(
        parts.map((p) => p.text),
        expected,
        `chunks of ${size}`,
      );
    }
  });

  test('a part over the cap is read to its end and only its head is kept', async () => {
    const big = Buffer.concat([Buffer.from('--b\r\n\r\n'), Buffer.alloc(200_000, 0x41), Buffer.from('\r\n--b--')]);
    const [part] = await collect(pieces(big, 4096), 'b', 100_000);
    assert.equal(part?.oversize, true);
    assert.equal(part?.text.length, 64 * 1024);
  });
});

describe('STOW-RS streams its body, holds each part to DICOM_MAX_INSTANCE_BYTES, caps requests and counts parts (issue 36 S7)', () => {
  let t: TestApp;
  const keyFor = async () => {
    const u = await createUser(t.deps);
    return (await createApiKey({ db: t.deps.db, meta: null, userId: u.user.id, name: 'router' })).key;
  };

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        DICOM_MAX_INSTANCE_BYTES: String(MAX_INSTANCE),
        DICOM_STOW_MAX_CONCURRENT: '1',
        RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const stow = (key: string, payload: Buffer | Readable, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/dicomweb/studies', payload, headers: { ...headers, ...bearer(key) } });
  const rowOf = async (sopInstanceUid: string) =>
    (await t.deps.db.select().from(dicomInstances).where(eq(dicomInstances.sopInstanceUid, sopInstanceUid)))[0];

  test('a part over DICOM_MAX_INSTANCE_BYTES is refused (A700) and not recorded; the others are taken', async () => {
    const small = await smallCt(1);
    const big = await buildDxInstance({ side: 320, patientId: 'BIG-1' });
    assert.ok(big.bytes.length > MAX_INSTANCE && small.bytes.length < MAX_INSTANCE);
    const body = related([small.bytes, big.bytes]);
    const res = await stow(await keyFor(), body.payload, body.headers);
    assert.equal(res.statusCode, 202, res.body);
    const failed = res.json()['00081198'].Value;
    assert.equal(failed.length, 1);
    assert.deepEqual(failed[0]['00081155'].Value, [big.sopInstanceUid], 'named by its UID, read from its head');
    assert.deepEqual(failed[0]['00081197'].Value, [0xa700]);
    assert.equal(await rowOf(big.sopInstanceUid), undefined);
    assert.ok(await rowOf(small.sopInstanceUid));
  });

  test("each part after the first spends one of the key's requests; past the budget a 429, the earlier parts kept", async () => {
    const instances = await Promise.all(Array.from({ length: PER_MINUTE + 2 }, (_, i) => smallCt(10 + i)));
    const body = related(instances.map((i) => i.bytes));
    const res = await stow(await keyFor(), body.payload, body.headers);
    assert.equal(res.statusCode, 429, res.body);
    assert.equal(res.json().message, STOW_RATE_SPENT);
    const stored = await Promise.all(instances.map((i) => rowOf(i.sopInstanceUid)));
    assert.deepEqual(
      stored.map(Boolean),
      instances.map((_, i) => i < PER_MINUTE),
      'the request and five more parts: six instances within the budget of six',
    );
  });

  test('a part is stored while the body is still arriving; a second request meanwhile is answered 503', async () => {
    const [first, second] = [await smallCt(30), await smallCt(31)];
    const boundary = 'slowbody';
    const stream = new PassThrough();
    const headers = { 'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}` };
    const key = await keyFor();
    const slow = stow(key, stream, headers);
    stream.write(Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`), first.bytes]));
    stream.write(`\r\n--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`);
    let row = await rowOf(first.sopInstanceUid);
    for (let i = 0; !row && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = await rowOf(first.sopInstanceUid);
    }
    assert.ok(row, 'the first part was stored before the body ended');

    const other = related([second.bytes]);
    const busy = await stow(await keyFor(), other.payload, other.headers);
    assert.equal(busy.statusCode, 503);
    assert.equal(busy.json().message, STOW_BUSY);
    assert.equal(busy.headers['retry-after'], '60');

    stream.end(Buffer.concat([second.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]));
    const done = await slow;
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.json()['00081199'].Value.length, 2);
  });
});
