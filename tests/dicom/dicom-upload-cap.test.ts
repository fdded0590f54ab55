import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { ANALYSIS_MESSAGES } from '@contracts/schemas/analysis.js';
import { writeDicom } from '../helpers/write-dicom.js';
import { postUploadFile } from '../helpers/post-multipart.js';
import { useAppWithUser } from '../helpers/use-app-with-user.js';

/**
 * DICOM files have their own upload cap (64 MB): an uncompressed 16-bit DX film of 3k×3k is
 * ~18 MB. Other images keep the spec's 10 MB, and the pixel cap still holds for both.
 */
describe('upload caps', () => {
  const s = useAppWithUser({ backend: 'pglite' });
  const post = (value: Buffer, filename: string, type: string) =>
    postUploadFile(s.t.app, s.u.token, { value, filename, type });

  test('an uncompressed 16-bit 3000×3000 DX film (18 MB) is accepted', { timeout: 60_000 }, async () => {
    const side = 3000;
    const pixels = new Uint16Array(side * side);
    for (let i = 0; i < pixels.length; i++) pixels[i] = ((i % side) * 4 + Math.floor(i / side)) % 4096;
    const file = await writeDicom({ width: side, height: side, pixels, bitsStored: 12, modality: 'DX' });
    assert.ok(file.length > 17_000_000, `${file.length} bytes`);
    const res = await post(file, 'film.dcm', 'application/dicom');
    assert.equal(res.statusCode, 202, res.body);
  });

  test('a DICOM over 64 MB is refused with 413 and a DICOM-specific message', { timeout: 60_000 }, async () => {
    const file = await writeDicom({ width: 16, height: 16, pixels: new Uint16Array(256), bitsStored: 12 });
    const big = Buffer.concat([file, Buffer.alloc(65 * 1024 * 1024)]);
    const res = await post(big, 'huge.dcm', 'application/dicom');
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().message, 'DICOM files should be less than 64MB');
  });

  test('the larger cap follows the content, not the name: an 11 MB non-DICOM named .dcm is still refused at 10 MB', async () => {
    const res = await post(Buffer.alloc(11 * 1024 * 1024, 0x41), 'fake.dcm', 'application/dicom');
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().message, ANALYSIS_MESSAGES.tooLarge);
  });

  test('a DICOM over the pixel cap is refused whatever its byte size', async () => {
    const file = await writeDicom({ width: 8, height: 8, pixels: new Uint16Array(64), bitsStored: 12 });
    // Rows × Columns = 10000 × 8000 = 80 MP in the tags, far fewer bytes in the file.
    const patched = Buffer.from(file);
    for (const [element, value] of [
      [0x0010, 10_000],
      [0x0011, 8000],
    ] as const) {
      const at = patched.indexOf(Buffer.from([0x28, 0x00, element, 0x00, 0x55, 0x53, 2, 0]), 132);
      patched.writeUInt16LE(value, at + 8);
    }
    const res = await post(patched, 'big.dcm', 'application/dicom');
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().message, ANALYSIS_MESSAGES.tooManyPixels);
  });
});
