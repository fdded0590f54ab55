import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { errorLabel } from '@common/serialize-error.js';

/** A failed finalize job's message is kept in Redis by BullMQ: only the error's name and code go there. */
describe('errorLabel', () => {
  test('names the error and its code, never its message', () => {
    const err = Object.assign(new Error('invalid input syntax for type uuid: "Jane Doe"'), { code: '22P02' });
    assert.equal(errorLabel(err), 'Error 22P02');
  });

  test("takes a wrapped driver error's code from its cause", () => {
    const err = new Error('Failed query: insert … params: Jane Doe', { cause: { code: '23505' } });
    err.name = 'DrizzleQueryError';
    assert.equal(errorLabel(err), 'DrizzleQueryError 23505');
  });

  test('something that is not an error still gets a label', () => {
    assert.equal(errorLabel(null), 'Error');
    assert.equal(errorLabel('Jane Doe'), 'Error');
  });
});
