import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import sharp from 'sharp';
import { isAppError } from '../../server/src/lib/app-error.js';
import { decodeDicom } from '../../server/src/services/dicom/decode-dicom.js';
import { writeDicom, type TDicomSpec } from '../helpers/write-dicom.js';

/**
 * JPEG 2000, HTJ2K and JPEG-LS DICOM files, encoded by the tests with the codecs' own encoders,
 * must render exactly like the same pixels stored uncompressed.
 */
const W = 24;
const H = 10;
const noisy12 = Array.from(
  { length: W * H },
  (_, i) => (Math.round(((i % W) / (W - 1)) * 4000) + ((i * 7919) % 95)) % 4096,
);
const full16 = Array.from({ length: W * H }, (_, i) => (i * 2731) % 65536);
const ramp8 = Array.from({ length: W * H }, (_, i) => (i * 13) % 256);

async function gray(spec: Partial<TDicomSpec>) {
  const d = await decodeDicom(await writeDicom({ width: W, height: H, pixels: noisy12, bitsStored: 12, ...spec }));
  const { data } = await sharp(d.png).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { d, data: Array.from(data) };
}

/** Overwrites a US element's value in an explicit little endian data set (to make tags lie). */
function setUs(file: Buffer, group: number, element: number, value: number): Buffer {
  const copy = Buffer.from(file);
  const tag = Buffer.from([group & 0xff, group >> 8, element & 0xff, element >> 8, 0x55, 0x53, 2, 0]);
  const at = copy.indexOf(tag, 132);
  assert.ok(at > 0, 'tag found');
  copy.writeUInt16LE(value, at + 8);
  return copy;
}

const refused = (pattern: RegExp) => (err: unknown) => isAppError(err) && pattern.test(err.message);

describe('DICOM through the WebAssembly codecs', () => {
  const cases = [
    ['jpeg2000', 'JPEG 2000 Lossless'],
    ['htj2k', 'High-Throughput JPEG 2000 Lossless'],
    ['jpeg-ls', 'JPEG-LS Lossless'],
  ] as const;

  for (const [syntax, name] of cases) {
    test(`${name}: 12-bit, 16-bit and 8-bit samples render exactly like uncompressed`, async () => {
      const compressed = await gray({ syntax });
      assert.equal(compressed.d.transferSyntax, name);
      assert.deepEqual(compressed.data, (await gray({})).data);
      const c16 = await gray({ syntax, pixels: full16, bitsStored: 16 });
      assert.deepEqual(c16.data, (await gray({ pixels: full16, bitsStored: 16 })).data);
      const c8 = await gray({ syntax, pixels: ramp8, bitsAllocated: 8, bitsStored: 8 });
      assert.deepEqual(c8.data, ramp8);
    });

    test(`${name}: a stream whose size disagrees with the DICOM tags is refused before decoding`, async () => {
      const file = setUs(
        await writeDicom({ width: W, height: H, pixels: noisy12, bitsStored: 12, syntax }),
        0x0028,
        0x0010,
        H + 1,
      );
      await assert.rejects(decodeDicom(file), refused(/does not match the DICOM image/));
    });

    test(`${name}: a damaged stream is a 4xx refusal, not a crash`, async () => {
      const file = await writeDicom({ width: W, height: H, pixels: noisy12, bitsStored: 12, syntax });
      // Keep the header (its size check passes), cut the coded data short and scramble it.
      const end = file.length - 8;
      for (let i = end - 120; i < end; i++) file[i] = (i * 31) & 0xff;
      await decodeDicom(file).then(
        (d) => assert.equal(d.width, W), // some streams still decode (codecs are error-resilient)
        (err: unknown) => assert.ok(isAppError(err), String(err)),
      );
    });
  }

  test('signed 12-bit JPEG 2000 (pixel representation 1) keeps negative values', async () => {
    const signed = noisy12.map((v) => v - 2048);
    const j2k = await gray({ syntax: 'jpeg2000', pixels: signed, pixelRepresentation: 1 });
    assert.deepEqual(j2k.data, (await gray({ pixels: signed, pixelRepresentation: 1 })).data);
  });
});
