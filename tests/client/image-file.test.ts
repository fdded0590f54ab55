import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { checkImageFile, IMAGE_MESSAGES } from '../../client/src/features/chat/lib/image-file.js';
import { DICOM_TOO_LARGE } from '@contracts/dicom-limits.js';

const MB = 1024 * 1024;

/** The form's early refusal mirrors the server's caps: 10 MB for pictures, 64 MB for DICOM studies. */
describe('analysis form file check', () => {
  test('a picture of 10 MB or more is refused with the spec message', () => {
    assert.equal(checkImageFile({ name: 'film.png', type: 'image/png', size: 10 * MB }), IMAGE_MESSAGES.size);
    assert.equal(checkImageFile({ name: 'film.png', type: 'image/png', size: 10 * MB - 1 }), null);
  });

  test('an 18 MB DICOM study passes; 64 MB or more is refused with the DICOM message', () => {
    assert.equal(checkImageFile({ name: 'study.dcm', type: '', size: 18 * MB }), null);
    assert.equal(checkImageFile({ name: 'study.dcm', type: 'application/dicom', size: 64 * MB }), DICOM_TOO_LARGE);
  });

  test('other types are refused by type first', () => {
    assert.equal(checkImageFile({ name: 'notes.txt', type: 'text/plain', size: 1 }), IMAGE_MESSAGES.type);
  });
});
