import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import sharp from 'sharp';
import { isAppError } from '../../server/src/lib/app-error.js';
import { decodeDicom } from '../../server/src/services/dicom/decode-dicom.js';
import { writeDicom, type TDicomSpec } from '../helpers/write-dicom.js';

const W = 16;
const H = 8;
/** A 12-bit ramp: 0, 273, 546 … 4095 across the image, the same on every row. */
const ramp12 = Array.from({ length: W * H }, (_, i) => Math.round(((i % W) / (W - 1)) * 4095));
const ramp8 = Array.from({ length: W * H }, (_, i) => Math.round(((i % W) / (W - 1)) * 255));

async function grayOf(png: Buffer): Promise<{ data: Uint8Array; channels: number; width: number; height: number }> {
  const meta = await sharp(png).metadata();
  const { data, info } = await sharp(png).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), channels: meta.channels ?? 0, width: info.width, height: info.height };
}

async function decodeSpec(spec: Partial<TDicomSpec>) {
  const decoded = await decodeDicom(await writeDicom({ width: W, height: H, pixels: ramp12, bitsStored: 12, ...spec }));
  return { decoded, gray: await grayOf(decoded.png) };
}

const refusedWith = (code: string, pattern: RegExp) => (err: unknown) =>
  isAppError(err) && err.code === code && pattern.test(err.message);

describe('DICOM decoding', () => {
  test('MONOCHROME2, 16 bits allocated / 12 stored, explicit VR: full range maps to 0..255 as a grayscale PNG', async () => {
    const { decoded, gray } = await decodeSpec({});
    assert.equal(gray.channels, 1);
    assert.deepEqual([gray.width, gray.height, decoded.width, decoded.height], [W, H, W, H]);
    assert.equal(gray.data[0], 0);
    assert.equal(gray.data[W - 1], 255);
    assert.equal(decoded.transferSyntax, 'Explicit VR Little Endian');
    assert.deepEqual(decoded.warnings, []);
  });

  test('MONOCHROME1 is inverted so that bone stays white', async () => {
    const m2 = await decodeSpec({ photometric: 'MONOCHROME2' });
    const m1 = await decodeSpec({ photometric: 'MONOCHROME1' });
    assert.equal(m1.gray.data[0], 255);
    assert.equal(m1.gray.data[W - 1], 0);
    for (let i = 0; i < W * H; i++) assert.equal(m1.gray.data[i], 255 - (m2.gray.data[i] ?? 0));
  });

  test('window centre/width is applied (LINEAR): below is black, above is white, centre is mid-gray', async () => {
    const { gray } = await decodeSpec({ window: { center: 2048, width: 1024 } });
    const expected = (x: number) => {
      const c = 2048,
        w = 1024;
      if (x <= c - 0.5 - (w - 1) / 2) return 0;
      if (x > c - 0.5 + (w - 1) / 2) return 255;
      return Math.round(((x - (c - 0.5)) / (w - 1) + 0.5) * 255);
    };
    for (let i = 0; i < W; i++) assert.equal(gray.data[i], expected(ramp12[i] ?? 0), `pixel ${i}`);
    assert.equal(gray.data[0], 0);
    assert.equal(gray.data[W - 1], 255);
  });

  test('rescale slope/intercept runs before the window (window given in modality units)', async () => {
    // Modality value = stored * 2 - 1000, so the window centre 3095 is stored value 2047.5.
    const rescaled = await decodeSpec({
      rescale: { slope: 2, intercept: -1000 },
      window: { center: 3095, width: 2048 },
    });
    const plain = await decodeSpec({ window: { center: 2047.5 + 0.25, width: 1024 + 0.5 } });
    for (let i = 0; i < W; i++)
      assert.ok(Math.abs((rescaled.gray.data[i] ?? 0) - (plain.gray.data[i] ?? 0)) <= 1, `pixel ${i}`);
  });

  test('a VOI LUT sequence is applied when the file has no window', async () => {
    // A LUT that maps stored values 0..4095 to a step: below 2048 black, from 2048 white.
    const data = Array.from({ length: 4096 }, (_, v) => (v < 2048 ? 0 : 65535));
    const { gray } = await decodeSpec({ voiLut: { firstMapped: 0, bits: 16, data } });
    for (let i = 0; i < W; i++) assert.equal(gray.data[i], (ramp12[i] ?? 0) < 2048 ? 0 : 255, `pixel ${i}`);
  });

  test('signed 12-bit values (PixelRepresentation 1) keep their order', async () => {
    const signed = ramp12.map((v) => v - 2048);
    const { gray } = await decodeSpec({ pixels: signed, pixelRepresentation: 1 });
    assert.equal(gray.data[0], 0);
    assert.equal(gray.data[W - 1], 255);
    for (let i = 1; i < W; i++) assert.ok((gray.data[i] ?? 0) > (gray.data[i - 1] ?? 0));
  });

  test('bits above BitsStored (overlay bits) are ignored', async () => {
    const withOverlay = ramp12.map((v) => v | 0x8000);
    const clean = await decodeSpec({});
    const dirty = await decodeSpec({ pixels: withOverlay });
    assert.deepEqual(dirty.gray.data, clean.gray.data);
  });

  test('8-bit implicit VR little endian is read as is', async () => {
    const { decoded, gray } = await decodeSpec({ pixels: ramp8, bitsAllocated: 8, bitsStored: 8, syntax: 'implicit' });
    assert.equal(decoded.transferSyntax, 'Implicit VR Little Endian');
    assert.deepEqual(Array.from(gray.data), ramp8);
  });

  test('deflated explicit VR little endian is inflated and read', async () => {
    const deflated = await decodeSpec({ syntax: 'deflated', window: { center: 2048, width: 1024 } });
    const plain = await decodeSpec({ window: { center: 2048, width: 1024 } });
    assert.equal(deflated.decoded.transferSyntax, 'Deflated Explicit VR Little Endian');
    assert.deepEqual(deflated.gray.data, plain.gray.data);
  });

  test('explicit VR big endian (retired) is read with the right byte order', async () => {
    const be = await decodeSpec({ syntax: 'big-endian' });
    const le = await decodeSpec({});
    assert.deepEqual(be.gray.data, le.gray.data);
  });

  test('JPEG baseline: the embedded JPEG frame is decoded (within JPEG loss)', async () => {
    const { decoded, gray } = await decodeSpec({
      pixels: ramp8,
      bitsAllocated: 8,
      bitsStored: 8,
      syntax: 'jpeg-baseline',
    });
    assert.equal(decoded.transferSyntax, 'JPEG Baseline (Process 1)');
    const meanErr = ramp8.reduce((s, v, i) => s + Math.abs(v - (gray.data[i] ?? 0)), 0) / ramp8.length;
    assert.ok(meanErr < 4, `mean error ${meanErr}`);
  });

  test('JPEG lossless (SV1): 12-bit values come back exactly', async () => {
    const noisy = ramp12.map((v, i) => Math.min(4095, v + ((i * 37) % 11)));
    const lossless = await decodeSpec({ pixels: noisy, syntax: 'jpeg-lossless' });
    const raw = await decodeSpec({ pixels: noisy });
    assert.equal(lossless.decoded.transferSyntax, 'JPEG Lossless, Non-Hierarchical, First-Order Prediction');
    assert.deepEqual(lossless.gray.data, raw.gray.data);
  });

  test('RLE Lossless: 16-bit and 8-bit values come back exactly', async () => {
    const noisy = ramp12.map((v, i) => (i % 5 === 0 ? v : Math.min(4095, v + (i % 3))));
    const rle = await decodeSpec({ pixels: noisy, syntax: 'rle' });
    const raw = await decodeSpec({ pixels: noisy });
    assert.equal(rle.decoded.transferSyntax, 'RLE Lossless');
    assert.deepEqual(rle.gray.data, raw.gray.data);
    const rle8 = await decodeSpec({ pixels: ramp8, bitsAllocated: 8, bitsStored: 8, syntax: 'rle' });
    assert.deepEqual(Array.from(rle8.gray.data), ramp8);
  });

  test('a syntax still unsupported (JPEG Extended) is refused by name', async () => {
    await assert.rejects(
      decodeSpec({ syntax: 'jpeg-extended' }),
      refusedWith('UNSUPPORTED_MEDIA', /JPEG Extended \(12-bit\) compression is not supported/),
    );
  });

  test('colour (RGB) DICOM is refused', async () => {
    await assert.rejects(decodeSpec({ photometric: 'RGB' }), refusedWith('UNSUPPORTED_MEDIA', /Only grayscale DICOM/));
  });

  for (const [modality, name] of [
    ['CT', 'computed tomography'],
    ['MR', 'magnetic resonance'],
    ['US', 'ultrasound'],
    ['NM', 'nuclear medicine'],
    ['PT', 'positron emission tomography'],
  ]) {
    test(`modality ${modality} is refused with a clear reason`, async () => {
      await assert.rejects(
        decodeSpec({ modality }),
        refusedWith('BAD_REQUEST', new RegExp(`${modality} \\(${name}\\) study, not a plain radiograph`)),
      );
    });
  }

  for (const modality of ['CR', 'DX', 'RG', 'DR']) {
    test(`modality ${modality} is accepted`, async () => {
      const { decoded } = await decodeSpec({ modality });
      assert.equal(decoded.modality, modality);
    });
  }

  test('a file without a modality is accepted with a warning', async () => {
    const { decoded } = await decodeSpec({ modality: null });
    assert.equal(decoded.modality, null);
    assert.match(decoded.warnings[0] ?? '', /does not state its modality/);
  });

  test('the stored copy has its 128-byte preamble zeroed and is otherwise unchanged', async () => {
    const preamble = Buffer.alloc(128, 0x41);
    preamble.write('MZ\x90\x00', 0, 'latin1');
    const file = await writeDicom({ width: W, height: H, pixels: ramp12, preamble });
    const { sanitized } = await decodeDicom(file);
    assert.ok(sanitized.subarray(0, 128).every((b) => b === 0));
    assert.deepEqual(sanitized.subarray(128), file.subarray(128));
    assert.equal(file[0], 0x4d, 'the input buffer itself is not modified');
  });

  test('a file that is not DICOM is refused', async () => {
    await assert.rejects(
      decodeDicom(Buffer.from('not a dicom file at all'.repeat(10))),
      refusedWith('BAD_REQUEST', /not a readable DICOM/),
    );
  });

  // A committed fixture: if it goes missing this test must fail, not skip (it used to skip silently).
  const sample = new URL('../fixtures/xray/covid-1.jpg', import.meta.url);
  test('a sample radiograph survives a 12-bit MONOCHROME1 round trip', async () => {
    const { data, info } = await sharp(sample.pathname).greyscale().raw().toBuffer({ resolveWithObject: true });
    // Stored as MONOCHROME1 12-bit: bright (bone) becomes a low value, as on CR plates.
    const pixels = Array.from(data, (v) => (255 - v) * 16);
    const decoded = await decodeDicom(
      await writeDicom({
        width: info.width,
        height: info.height,
        pixels,
        bitsStored: 12,
        photometric: 'MONOCHROME1',
        modality: 'CR',
      }),
    );
    const gray = await grayOf(decoded.png);
    let lo = 255,
      hi = 0;
    for (const v of data) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    const meanErr =
      Array.from(data).reduce((s, v, i) => s + Math.abs(((v - lo) / (hi - lo)) * 255 - (gray.data[i] ?? 0)), 0) /
      data.length;
    assert.ok(meanErr < 1, `mean error ${meanErr}`);
  });
});
