import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { chats, storedImages } from '../../server/src/db/schema.js';
import { testBackends } from '../helpers/test-config.js';
import { TEST_PATIENT_MARKER } from '../helpers/test-patients.js';
import { writeDicom, type TDicomSpec } from '../helpers/write-dicom.js';
import { radiograph } from '../analysis/support/fixtures.js';
import { multipart, postMultipart } from '../helpers/post-multipart.js';
import { useAppWithUser } from '../helpers/use-app-with-user.js';

/** A real radiograph from the shared dataset as a 12-bit MONOCHROME1 CR DICOM. */
async function radiographDicom(over: Partial<TDicomSpec> = {}): Promise<Buffer> {
  const { data, info } = await sharp(await radiograph({ side: 256 }))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = Array.from(data, (v) => (255 - v) * 16);
  return writeDicom({
    width: info.width,
    height: info.height,
    pixels,
    bitsStored: 12,
    photometric: 'MONOCHROME1',
    modality: 'CR',
    ...over,
  });
}

const dicomBody = (file: Buffer, profile?: object) =>
  multipart([
    ...(profile ? [{ name: 'profile', value: JSON.stringify(profile) }] : []),
    { name: 'image', value: file, filename: 'study.dcm', type: 'application/dicom' },
  ]);

for (const backend of testBackends()) {
  describe(`DICOM upload on ${backend}`, () => {
    const s = useAppWithUser({ backend });
    const post = (body: ReturnType<typeof multipart>) => postMultipart(s.t.app, '/api/chat/upload', body, s.u.token);

    test('a .dcm upload is stored as a grayscale PNG rendering; name and age come from the tags when the form is empty', async () => {
      const file = await radiographDicom({
        patientName: `${TEST_PATIENT_MARKER}^Ada`,
        patientAge: '061Y',
        preamble: Buffer.from('MZ-not-a-program'),
      });
      const res = await post(dicomBody(file));
      assert.equal(res.statusCode, 202, res.body);
      const [chat] = await s.t.deps.db.select().from(chats).where(eq(chats.id, res.json().data.chat_id));
      assert.equal(chat?.patient.full_name, `Ada ${TEST_PATIENT_MARKER}`);
      assert.equal(chat?.patient.age, '61');
      const [image] = await s.t.deps.db.select().from(storedImages).where(eq(storedImages.id, chat!.imageId!));
      assert.equal(image?.mediaType, 'image/png');
      const stored = await s.t.deps.images.get(image!.storageKey);
      const meta = await sharp(stored).metadata();
      assert.equal(meta.format, 'png');
      assert.equal(meta.channels, 1);
      assert.ok(!stored.includes(Buffer.from(TEST_PATIENT_MARKER)), 'no DICOM header travels with the stored image');
    });

    test('what the clinician typed wins over the DICOM tags', async () => {
      const file = await radiographDicom({
        patientName: 'TAG^NAME',
        patientBirthDate: '19700101',
        studyDate: '20200101',
      });
      const res = await post(dicomBody(file, { full_name: `${TEST_PATIENT_MARKER} Typed`, age: 33 }));
      assert.equal(res.statusCode, 202, res.body);
      const [chat] = await s.t.deps.db.select().from(chats).where(eq(chats.id, res.json().data.chat_id));
      assert.equal(chat?.patient.full_name, `${TEST_PATIENT_MARKER} Typed`);
      assert.equal(chat?.patient.age, '33');
    });

    test('a CT DICOM is refused with a clear reason and nothing is stored', async () => {
      const before = (await s.t.deps.db.select().from(chats).where(eq(chats.userId, s.u.user.id))).length;
      const res = await post(dicomBody(await radiographDicom({ modality: 'CT' })));
      assert.equal(res.statusCode, 400);
      assert.match(res.json().message, /CT \(computed tomography\) study, not a plain radiograph/);
      assert.equal((await s.t.deps.db.select().from(chats).where(eq(chats.userId, s.u.user.id))).length, before);
    });

    test('an unsupported compression is refused by name (415)', async () => {
      const res = await post(dicomBody(await radiographDicom({ syntax: 'jpeg-extended' })));
      assert.equal(res.statusCode, 415);
      assert.match(res.json().message, /JPEG Extended \(12-bit\) compression is not supported/);
    });
  });
}
