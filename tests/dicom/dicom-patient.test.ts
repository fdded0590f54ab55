import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import {
  ageAtStudy,
  formatPersonName,
  parseAgeString,
  readDicomPatient,
} from '../../server/src/services/dicom/read-dicom-patient.js';
import { writeDicom } from '../helpers/write-dicom.js';

const base = { width: 2, height: 2, pixels: [0, 1, 2, 3] };

describe('patient details from DICOM tags', () => {
  test('PatientName and PatientAge prefill name and age', async () => {
    const file = await writeDicom({ ...base, patientName: 'DOE^JANE^Q', patientAge: '045Y' });
    assert.deepEqual(readDicomPatient(file), { name: 'JANE Q DOE', age: 45 });
  });

  test('without PatientAge the age is computed from PatientBirthDate and StudyDate', async () => {
    const file = await writeDicom({
      ...base,
      patientName: 'ROE^RICHARD',
      patientBirthDate: '19800615',
      studyDate: '20240614',
      syntax: 'implicit',
    });
    assert.deepEqual(readDicomPatient(file), { name: 'RICHARD ROE', age: 43 });
  });

  test('a file without patient tags gives nulls, a non-DICOM file gives null', async () => {
    assert.deepEqual(readDicomPatient(await writeDicom(base)), { name: null, age: null });
    assert.equal(readDicomPatient(Buffer.from('hello')), null);
  });

  test('age strings in days, weeks, months and years', () => {
    assert.equal(parseAgeString('045Y'), 45);
    assert.equal(parseAgeString('018M'), 1);
    assert.equal(parseAgeString('003W'), 0);
    assert.equal(parseAgeString('400D'), 1);
    assert.equal(parseAgeString('45'), null);
  });

  test('birthday not reached yet in the study year counts one year less', () => {
    assert.equal(ageAtStudy('20000301', '20250228'), 24);
    assert.equal(ageAtStudy('20000301', '20250301'), 25);
    assert.equal(ageAtStudy('bad', '20250301'), null);
  });

  test('person names: family^given^middle^prefix^suffix, ideographic groups dropped', () => {
    assert.equal(formatPersonName('Smith^John^^Dr^Jr'), 'Dr John Smith Jr');
    assert.equal(formatPersonName('Yamada^Tarou=山田^太郎'), 'Tarou Yamada');
    assert.equal(formatPersonName('^^^^'), null);
  });
});
