import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '@contracts/schemas/analysis.js';
import { decodeImage } from '../../worker/src/pipeline/decode-image.js';
import { toGray } from '../../worker/src/pipeline/preprocess.js';
import { gradientPng } from '../helpers/write-gradient-png.js';

/**
 * Issue 15 (Info): a 48 KB PNG just under the 50-megapixel cap raised a worker from 175 to 441 MB.
 * The worker's decode now refuses what the upload refuses and hands a gray film back as one
 * channel (a third of the memory), with the same luma values.
 */
const png = (width: number, height: number, channels: 3 | 4) =>
  sharp({ create: { width, height, channels, background: { r: 90, g: 140, b: 200 } } })
    .png()
    .toBuffer();

describe('worker decode limits', () => {
  test('an image over the upload pixel cap is refused from its header', async () => {
    const side = Math.ceil(Math.sqrt(MAX_IMAGE_PIXELS)) + 10;
    const r = await decodeImage(await gradientPng(side));
    assert.equal(r.ok, false);
  });

  test('an 8-bit gray PNG decodes to one channel, with the luma the RGB path gave', async () => {
    const gray = await sharp(await png(64, 48, 3))
      .toColourspace('b-w')
      .png()
      .toBuffer();
    const r = await decodeImage(gray);
    assert.ok(r.ok);
    assert.equal(r.image.channels, 1);
    assert.equal(r.image.data.length, 64 * 48);
    const rgb = await sharp(gray).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const viaRgb = toGray({ width: 64, height: 48, channels: rgb.info.channels, data: new Uint8Array(rgb.data) });
    assert.deepEqual(Array.from(toGray(r.image)), Array.from(viaRgb));
  });

  test('a colour PNG still decodes to its channels', async () => {
    const r = await decodeImage(await png(32, 32, 3));
    assert.ok(r.ok);
    assert.equal(r.image.channels, 3);
  });
});
