import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import fc from 'fast-check';
import { isAppError } from '../../server/src/lib/app-error.js';
import { decodeDicom } from '../../server/src/services/dicom/decode-dicom.js';
import { readDicomPatient } from '../../server/src/services/dicom/read-dicom-patient.js';
import { writeDicom } from '../helpers/write-dicom.js';

/**
 * Hostile DICOM: valid files with random bytes overwritten, truncated, or random bytes behind a
 * DICM magic. The decoder must answer with a 4xx AppError or a result, never crash or hang.
 */
describe('DICOM decoder under hostile input', () => {
  test('mutated and truncated files end in a result or an AppError', async () => {
    const syntaxes = ['explicit', 'implicit', 'jpeg-baseline', 'jpeg-lossless', 'rle', 'big-endian'] as const;
    const seeds = await Promise.all(
      syntaxes.map((syntax) =>
        writeDicom({
          width: 12,
          height: 10,
          pixels: Array.from({ length: 120 }, (_, i) => (i * 37) % 256),
          bitsAllocated: syntax === 'jpeg-baseline' ? 8 : 16,
          bitsStored: 8,
          syntax,
          patientName: 'A^B',
          window: { center: 128, width: 200 },
        }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: seeds.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 12 }),
        fc.option(fc.nat(), { nil: null }),
        async (which, edits, cut) => {
          const seed = seeds[which] ?? Buffer.alloc(0);
          const file = Buffer.from(seed);
          // Keep the magic so the DICOM path is taken; mutate everything after it.
          for (const [pos, byte] of edits) file[132 + (pos % Math.max(1, file.length - 132))] = byte;
          const input = cut === null ? file : file.subarray(0, 132 + (cut % Math.max(1, file.length - 132)));
          readDicomPatient(input);
          try {
            const out = await decodeDicom(input);
            assert.ok(out.png.length > 0);
          } catch (err) {
            assert.ok(isAppError(err), `unexpected ${String(err)}`);
            assert.ok(['BAD_REQUEST', 'UNSUPPORTED_MEDIA', 'PAYLOAD_TOO_LARGE'].includes(err.code));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('random bytes behind a DICM magic are refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: 600 }), async (tail) => {
        const file = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), Buffer.from(tail)]);
        await assert.rejects(decodeDicom(file), (err) => isAppError(err));
      }),
      { numRuns: 200 },
    );
  });
});
