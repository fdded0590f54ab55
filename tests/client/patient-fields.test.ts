import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { ANALYSIS_MESSAGES } from '@contracts/schemas/analysis.js';
import {
  AGE_KEY,
  FIELD_MESSAGES,
  NAME_KEY,
  newRow,
  validatePatientForm,
} from '../../client/src/features/chat/lib/patient-fields.js';

const rows = (name: string, age: string, ...extra: [string, string][]) => [
  newRow(NAME_KEY, name, true),
  newRow(AGE_KEY, age, true),
  ...extra.map(([k, v]) => newRow(k, v)),
];
const messageOf = (r: ReturnType<typeof validatePatientForm>) => (r.ok ? null : r.message);

/** The analysis form checks in the spec's order, with the upload schema's own messages. */
describe('analysis form patient check', () => {
  test('image, name, age, age range, then the custom rows', () => {
    assert.equal(messageOf(validatePatientForm(false, rows('Jane', '40'))), ANALYSIS_MESSAGES.imageRequired);
    assert.equal(messageOf(validatePatientForm(true, rows(' ', '40'))), FIELD_MESSAGES.name);
    assert.equal(messageOf(validatePatientForm(true, rows('Jane', ''))), FIELD_MESSAGES.age);
    assert.equal(messageOf(validatePatientForm(true, rows('Jane', '40', ['', 'x']))), FIELD_MESSAGES.fields);
    // A bad age is reported before an empty custom row.
    assert.equal(messageOf(validatePatientForm(true, rows('Jane', '0', ['', '']))), ANALYSIS_MESSAGES.invalidAge);
  });

  test('the age passes exactly when the server schema takes it (whole number 1-150, digits only)', () => {
    for (const bad of ['0', '151', '4.5', 'abc', '0x10', '1e2', '-3'])
      assert.equal(messageOf(validatePatientForm(true, rows('Jane', bad))), ANALYSIS_MESSAGES.invalidAge, bad);
    for (const good of ['1', ' 45 ', '150']) assert.equal(validatePatientForm(true, rows('Jane', good)).ok, true, good);
  });

  test("a valid form gives the request's patient object; the schema's length caps hold", () => {
    assert.deepEqual(validatePatientForm(true, rows(' Jane ', '45', ['Symptoms', ' cough '])), {
      ok: true,
      patient: { full_name: 'Jane', age: 45, medical_history: 'Symptoms: cough' },
    });
    const long = validatePatientForm(true, rows('J'.repeat(201), '45'));
    assert.equal(messageOf(long), ANALYSIS_MESSAGES.invalidProfile);
  });
});
