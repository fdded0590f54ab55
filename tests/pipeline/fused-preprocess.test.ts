import assert from 'node:assert/strict';
import { test } from 'vitest';
import { colourFraction, grayAndColour } from '../../worker/src/pipeline/check-image.js';
import { toGray } from '../../worker/src/pipeline/preprocess.js';

// Issue 42 item 8: the checks read the film's pixels once for the luma and the colour check; the
// values must be exactly those of the two separate functions (the parity with Python rests on them).
test('grayAndColour gives toGray and colourFraction exactly, for gray, RGB and RGBA films', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
  for (const channels of [1, 3, 4]) {
    const width = 37;
    const height = 23;
    const data = new Uint8Array(width * height * channels);
    for (let i = 0; i < width * height; i++) {
      const v = rand();
      // Half the pixels gray (equal channels), half coloured.
      for (let c = 0; c < channels; c++) data[i * channels + c] = i % 2 ? v : rand();
    }
    const img = { width, height, channels, data };
    for (const chroma of [0, 38]) {
      const fused = grayAndColour(img, chroma);
      assert.deepEqual(fused.gray, toGray(img), `${channels} channels: luma`);
      assert.equal(fused.coloured, colourFraction(img, chroma), `${channels} channels, chroma ${chroma}`);
    }
  }
});
