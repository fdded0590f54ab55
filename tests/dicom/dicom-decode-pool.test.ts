import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'vitest';
import {
  DICOM_DECODE_TOO_BIG,
  DICOM_DECODE_TOO_SLOW,
  DICOM_DECODER_BUSY,
  DICOM_PIXELS_TOO_LARGE,
} from '@contracts/dicom-limits.js';
import {
  createDicomDecodePool,
  decodeDicomInThread,
  type TDicomDecodePool,
} from '../../server/src/services/dicom/decode-dicom-pool.js';
import { writeDicom } from '../helpers/write-dicom.js';
import { hostileJ2kDicom } from '../helpers/write-hostile-dicom.js';

/**
 * The DICOM thread pool stops a decode that overruns its time or memory limit, answers with the
 * reason, and serves the next file with a fresh thread. The costly file is the largest the pixel
 * budget accepts: an empty 7000×7000 8-bit JPEG 2000 (~600 bytes) that OpenJPEG decodes for
 * real, a full inverse wavelet transform over 49 million samples: seconds of CPU and hundreds of MB.
 */
const good = () => {
  const pixels = Array.from({ length: 96 * 96 }, (_, i) => ((i % 96) * 40) % 4096);
  return writeDicom({ width: 96, height: 96, pixels, bitsStored: 12, syntax: 'jpeg2000' });
};

describe('DICOM decode pool', () => {
  let pool: TDicomDecodePool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  test('a normal file decodes in the thread, and a refusal made in the thread keeps its message', async () => {
    pool = createDicomDecodePool();
    const d = await decodeDicomInThread({ bytes: await good(), pool });
    assert.equal(d.width, 96);
    assert.deepEqual([...d.png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
    await assert.rejects(decodeDicomInThread({ bytes: await hostileJ2kDicom(16), pool }), {
      code: 'PAYLOAD_TOO_LARGE',
      message: DICOM_PIXELS_TOO_LARGE,
    });
  });

  test('the caller keeps its buffer (the thread gets a copy)', async () => {
    pool = createDicomDecodePool();
    const file = await good();
    const length = file.length;
    await decodeDicomInThread({ bytes: file, pool });
    assert.equal(file.length, length);
  });

  test('a decode over the time limit is stopped and refused, and the pool then decodes the next file', async () => {
    pool = createDicomDecodePool();
    await assert.rejects(decodeDicomInThread({ bytes: await hostileJ2kDicom(8), pool, timeLimitMs: 50 }), {
      code: 'PAYLOAD_TOO_LARGE',
      message: DICOM_DECODE_TOO_SLOW,
    });
    const d = await decodeDicomInThread({ bytes: await good(), pool });
    assert.equal(d.height, 96);
  });

  test('a decode over the memory limit is stopped and refused, and the pool recovers', async () => {
    pool = createDicomDecodePool({ rssBudgetMb: 40, timeLimitMs: 600_000 });
    await assert.rejects(decodeDicomInThread({ bytes: await hostileJ2kDicom(8), pool }), {
      code: 'PAYLOAD_TOO_LARGE',
      message: DICOM_DECODE_TOO_BIG,
    });
    const d = await decodeDicomInThread({ bytes: await good(), pool });
    assert.equal(d.width, 96);
  });

  test('past the queue limit a file is refused at once with 503 rather than left waiting', async () => {
    pool = createDicomDecodePool({ queueLimit: 1, timeLimitMs: 600_000 });
    const slow = await hostileJ2kDicom(8);
    const first = decodeDicomInThread({ bytes: slow, pool });
    const second = decodeDicomInThread({ bytes: slow, pool });
    const settled = Promise.allSettled([first, second]);
    await assert.rejects(decodeDicomInThread({ bytes: slow, pool }), {
      code: 'UNAVAILABLE',
      message: DICOM_DECODER_BUSY,
    });
    await pool.close();
    await settled;
  });
});
