import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { ZLegacyProfilePayload, ZProfileInput } from '@contracts/schemas/profile.js';
import { formatMedicalHistory } from '../../server/src/services/history/format-medical-history.js';
import { decodeCursor, encodeCursor } from '../../server/src/services/history/keyset-cursor.js';

describe('medical history text and profile payloads (no database)', () => {
  test("custom fields become 'key: value; key2: value2', or 'None'", () => {
    assert.equal(formatMedicalHistory({ Allergies: 'penicillin', Smoker: 'no' }), 'Allergies: penicillin; Smoker: no');
    assert.equal(formatMedicalHistory({}), 'None');
    assert.equal(formatMedicalHistory(null), 'None');
    assert.equal(
      formatMedicalHistory({ Empty: '', Blank: '   ', Nothing: null, Meds: { daily: 'aspirin' }, Count: 2 }),
      'Meds: {"daily":"aspirin"}; Count: 2',
    );
  });

  test('the REST profile object maps to the same values the tRPC input validates', () => {
    const parsed = ZLegacyProfilePayload.parse({
      full_name: ' Ada ',
      age: ' 36 ',
      Allergies: 'penicillin',
      user_id: 'x',
      id: 'y',
      Empty: '',
      Nothing: null,
    });
    assert.deepEqual(parsed, {
      patientName: 'Ada',
      age: 36,
      additionalFields: [
        { key: 'Allergies', value: 'penicillin' },
        { key: 'user_id', value: 'x' },
        { key: 'id', value: 'y' },
      ],
    });
    assert.deepEqual(ZProfileInput.parse({ patientName: 'Ada', age: '0' }), {
      patientName: 'Ada',
      age: 0,
      additionalFields: [],
    });
  });

  test('cursors round-trip at microsecond precision and reject tampering', () => {
    const pos = { createdAt: '2025-01-01 00:00:00.123456+00', id: '0b6a8f3e-6d8a-4f2b-9a55-6f0d2b8e1c11' };
    assert.deepEqual(decodeCursor(encodeCursor(pos)), pos);
    assert.equal(decodeCursor(null), null);
    assert.throws(() => decodeCursor('bm90IGpzb24'), /Invalid cursor/);
    assert.throws(
      () => decodeCursor(Buffer.from(JSON.stringify(['now', "1' or 1=1"])).toString('base64url')),
      /Invalid cursor/,
    );
  });
});
