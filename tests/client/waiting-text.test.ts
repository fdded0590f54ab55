import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { waitingText } from '../../client/src/features/worklist/lib/waiting-text.js';

const MIN = 60_000;

/** The worklist's waiting column (issue 41): "2 h 5 min", as a reading room says it. */
describe('waitingText', () => {
  test('minutes, hours and minutes, days and hours; a zero smaller unit is dropped', () => {
    assert.equal(waitingText(-5 * MIN), 'under 1 min', 'a clock a little behind the server');
    assert.equal(waitingText(59_999), 'under 1 min');
    assert.equal(waitingText(45 * MIN), '45 min');
    assert.equal(waitingText(125 * MIN), '2 h 5 min');
    assert.equal(waitingText(180 * MIN + 59_000), '3 h');
    assert.equal(waitingText((24 * 60 + 4 * 60 + 30) * MIN), '1 d 4 h');
    assert.equal(waitingText(3 * 24 * 60 * MIN), '3 d');
  });
});
