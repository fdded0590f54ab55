import assert from 'node:assert/strict';
import { inflateRawSync } from 'node:zlib';
import { describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { DICOM_INFLATES_TOO_LARGE, DICOM_PIXELS_TOO_LARGE } from '@contracts/dicom-limits.js';
import { storedImages } from '../../server/src/db/schema.js';
import { decodeDicom } from '../../server/src/services/dicom/decode-dicom.js';
import { parseDicomHeader } from '../../server/src/services/dicom/parse-dicom-capped.js';
import { readInstanceTags } from '../../server/src/services/dicom-node/read-instance-tags.js';
import { writeDicom } from '../helpers/write-dicom.js';
import { deflateBombDicom, hostileJ2kDicom, hostileRleDicom } from '../helpers/write-hostile-dicom.js';
import { postUploadFile } from '../helpers/post-multipart.js';
import { useAppWithUser } from '../helpers/use-app-with-user.js';

/**
 * Issue 23, N1: the outside scan's four hostile DICOM files. Each is refused from its header (or
 * at the inflate cap) with a message saying why, before a codec or an unbounded inflate runs,
 * and nothing is stored. The decode itself runs in the DICOM thread pool (decode-dicom-pool.ts).
 */
const HOSTILE = [
  {
    name: 'a JPEG 2000 DICOM of a few hundred bytes declaring 7000×7000 16-bit',
    make: () => hostileJ2kDicom(16),
    message: DICOM_PIXELS_TOO_LARGE,
  },
  { name: 'a ~1.5 MB RLE DICOM, 7000×7000 16-bit', make: hostileRleDicom, message: DICOM_PIXELS_TOO_LARGE },
  {
    name: 'a ~255 KB Deflated DICOM inflating to 256 MiB',
    make: () => deflateBombDicom(256),
    message: DICOM_INFLATES_TOO_LARGE,
  },
  {
    name: 'a ~1 MB Deflated DICOM inflating to 1 GiB',
    make: () => deflateBombDicom(1024),
    message: DICOM_INFLATES_TOO_LARGE,
  },
] as const;

describe('hostile DICOM files', () => {
  test('the files are what the scan sent: small on the wire, huge once decoded', async () => {
    assert.ok((await hostileJ2kDicom(16)).length < 1024);
    const rle = await hostileRleDicom();
    assert.ok(rle.length > 1_400_000 && rle.length < 1_600_000, `${rle.length}`);
    const bomb = await deflateBombDicom(256);
    assert.ok(bomb.length < 300_000, `${bomb.length}`);
    // The bomb really inflates to 256 MiB and more (the data set's other tags).
    const dataSet = inflateRawSync(bomb.subarray(144 + bomb.readUInt32LE(140)));
    assert.ok(dataSet.length > 256 * 1024 * 1024);
    assert.ok((await deflateBombDicom(1024)).length < 1_100_000);
  });

  for (const h of HOSTILE) {
    test(`decodeDicom refuses ${h.name}`, async () => {
      await assert.rejects(decodeDicom(await h.make()), { code: 'PAYLOAD_TOO_LARGE', message: h.message });
    });
  }

  test('the DICOM node reads the tags of a Deflated bomb from its first MB, not from the 1 GiB it inflates to', async () => {
    const bomb = await deflateBombDicom(1024);
    const tags = readInstanceTags(bomb);
    assert.equal(tags?.SOPInstanceUID, '2.25.1234567890');
    const ds = parseDicomHeader(bomb);
    assert.ok(ds && ds.byteArray.length < 10 * 1024 * 1024, `${ds?.byteArray.length}`);
  });

  test('a Deflated DICOM whose declared image is over the budget is refused before inflating it', async () => {
    // 6000×6000 16-bit declares 72 MB of pixels; the data set carries only a few bytes of them.
    const file = await writeDicom({ width: 6000, height: 6000, pixels: [1, 2, 3, 4], syntax: 'deflated' });
    await assert.rejects(decodeDicom(file), { code: 'PAYLOAD_TOO_LARGE', message: DICOM_PIXELS_TOO_LARGE });
  });

  test('a Deflated DICOM within its declared size still decodes', async () => {
    const pixels = Array.from({ length: 64 * 64 }, (_, i) => (i * 7) % 4096);
    const d = await decodeDicom(
      await writeDicom({ width: 64, height: 64, pixels, bitsStored: 12, syntax: 'deflated' }),
    );
    assert.equal(d.width, 64);
    assert.equal(d.transferSyntax, 'Deflated Explicit VR Little Endian');
  });
});

describe('hostile DICOM uploads', () => {
  const s = useAppWithUser({ backend: 'pglite' });
  const post = (file: Buffer) =>
    postUploadFile(s.t.app, s.u.token, { value: file, filename: 'study.dcm', type: 'application/dicom' });

  for (const h of HOSTILE) {
    test(`${h.name} is answered 413 with a reason, and nothing is stored`, async () => {
      const res = await post(await h.make());
      assert.equal(res.statusCode, 413, res.body);
      assert.equal(res.json().message, h.message);
      const stored = await s.t.deps.db.select().from(storedImages).where(eq(storedImages.userId, s.u.user.id));
      assert.equal(stored.length, 0);
    });
  }

  test('after them, an ordinary DICOM still decodes and is accepted', async () => {
    const pixels = Array.from({ length: 128 * 128 }, (_, i) => ((i % 128) * 32) % 4096);
    const res = await post(await writeDicom({ width: 128, height: 128, pixels, bitsStored: 12, syntax: 'rle' }));
    assert.equal(res.statusCode, 202, res.body);
  });
});
