import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { dicomInstances, patientProfiles } from '../../server/src/db/schema.js';
import { decodeDicomText } from '../../server/src/services/dicom/decode-dicom-text.js';
import { buildResultObjects } from '../../server/src/services/dicom-node/build-result-objects.js';
import { writePart10 } from '../../server/src/services/dicom-node/write-part10.js';
import { createUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { freePort } from '../helpers/start-orthanc.js';
import { sampleResult } from '../analysis/support/fixtures.js';
import { confirmOwnerForTest, untilNodeAccepts } from './support/node-owner.js';

const run = promisify(execFile);
const NODE_AE = 'CXR_AI';
const NAME = 'Müller^Jürgen';

/** Replaces an ASCII stand-in inside a written instance with the bytes a sender would put there. */
function patch(bytes: Buffer, from: string, to: Buffer): Buffer {
  const at = bytes.indexOf(Buffer.from(from, 'latin1'));
  assert.ok(at >= 0 && to.length === from.length, `stand-in ${from}`);
  const out = Buffer.from(bytes);
  to.copy(out, at);
  return out;
}

describe('text by SpecificCharacterSet, and PatientIDs that cannot be trusted (issue 36, S8)', () => {
  test('ISO_IR 192, ISO_IR 100, ISO_IR 148 and ISO 2022 Latin sets with escape sequences decode to the same text', () => {
    assert.equal(decodeDicomText(Buffer.from(NAME, 'utf8'), 'ISO_IR 192'), NAME);
    assert.equal(decodeDicomText(Buffer.from(NAME, 'latin1'), 'ISO_IR 100'), NAME);
    assert.equal(decodeDicomText(Buffer.from([0x47, 0xfc, 0x6c, 0xfe]), 'ISO_IR 148'), 'Gülş');
    assert.equal(decodeDicomText(Buffer.from(NAME, 'latin1'), 'ISO 2022 IR 100'), NAME);
    // Default repertoire first, Latin-2 invoked by ESC 2/13 4/2, back to the initial sets after '^'.
    const mixed = Buffer.from([0x1b, 0x2d, 0x42, 0x4b, 0xf3, 0x73, 0x5e, 0x41, 0x6e, 0x6e, 0x61]);
    assert.equal(decodeDicomText(mixed, '\\ISO 2022 IR 101'), 'Kós^Anna');
    assert.equal(decodeDicomText(Buffer.from([0x1b, 0x2d, 0x42, 0xb1]), 'ISO 2022 IR 100\\ISO 2022 IR 101'), 'ą');
  });

  describe('through the node (storescu)', () => {
    let t: TestApp;
    let port: number;
    let ownerId: string;
    const dir = mkdtempSync(join(tmpdir(), 'dicom-charsets-'));
    const store = async (name: string, bytes: Buffer) => {
      const file = join(dir, name);
      writeFileSync(file, bytes);
      // storescu exits non-zero on an error status; its output says which.
      const r = await run('storescu', [
        '-v',
        '-aet',
        'STORESCU',
        '-aec',
        NODE_AE,
        '127.0.0.1',
        String(port),
        file,
      ]).catch((e: { stdout: string; stderr: string }) => e);
      return `${r.stdout}${r.stderr}`;
    };
    const rowOf = async (sop: string) =>
      (await t.deps.db.select().from(dicomInstances).where(eq(dicomInstances.sopInstanceUid, sop)))[0];

    beforeAll(async () => {
      port = await freePort();
      const ownerEmail = `charset-owner-${Date.now()}@example.org`;
      t = await createTestApp({
        background: true,
        env: {
          DICOM_PORT: String(port),
          DICOM_AE_TITLE: NODE_AE,
          DICOM_ALLOWED_CALLERS: 'STORESCU@localhost',
          DICOM_OWNER_EMAIL: ownerEmail,
        },
      });
      ownerId = (await createUser(t.deps, { email: ownerEmail })).user.id;
      await confirmOwnerForTest(t, ownerId);
      await untilNodeAccepts(port, NODE_AE);
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('a UTF-8 name and a Latin-1 name are stored, profiled and sent back as the same UTF-8 text', async () => {
      const utf8 = await buildDxInstance({ patientName: NAME, patientId: 'CS-UTF8' });
      assert.match(await store('utf8.dcm', utf8.bytes), /Success/);
      const latin = await buildDxInstance({ patientName: 'MXller^JXrgen', patientId: 'CS-LATIN', index: 1 });
      const latinBytes = patch(
        patch(latin.bytes, 'ISO_IR 192', Buffer.from('ISO_IR 100')),
        'MXller^JXrgen',
        Buffer.from(NAME, 'latin1'),
      );
      assert.match(await store('latin1.dcm', latinBytes), /Success/);

      for (const sop of [utf8.sopInstanceUid, latin.sopInstanceUid]) {
        const row = await rowOf(sop);
        assert.equal(row?.tags.PatientName, NAME);
        assert.ok(row?.profileId, 'queued with a profile');
        const [profile] = await t.deps.db.select().from(patientProfiles).where(eq(patientProfiles.id, row.profileId));
        assert.match(profile!.fullName, /Müller/);
        const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } })
          .png()
          .toBuffer();
        const built = await buildResultObjects({ source: { ...row, tags: row.tags }, image, result: sampleResult() });
        const sr = writePart10(built.report);
        assert.ok(sr.includes(Buffer.from('ISO_IR 192')));
        assert.ok(sr.includes(Buffer.from(NAME, 'utf8')), 'the SR repeats the name in UTF-8');
        assert.ok(!sr.includes(Buffer.from('MÃ¼ller', 'utf8')));
      }
    });

    test('a PatientID with a NUL in it, or longer than 64 characters, is refused (0xC000) and not recorded', async () => {
      const nul = await buildDxInstance({ patientId: 'PIDxNUL' });
      const withNul = patch(nul.bytes, 'PIDxNUL', Buffer.from('PID\0NUL', 'latin1'));
      const out = await store('nul.dcm', withNul);
      assert.match(out, /Error: CannotUnderstand/);
      assert.equal(await rowOf(nul.sopInstanceUid), undefined);

      const long = await buildDxInstance({ patientId: 'L'.repeat(66) });
      assert.match(await store('long.dcm', long.bytes), /Error: CannotUnderstand/);
      assert.equal(await rowOf(long.sopInstanceUid), undefined);
    });
  });
});
