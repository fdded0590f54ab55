import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { lastMondays } from '../../server/src/services/site/get-monitoring.js';
import { histogram, psi } from '../../server/src/services/site/psi.js';

const close = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-6, `${a} vs ${b}`);

describe('population stability index', () => {
  test('against hand-computed values', () => {
    // 0.4·ln(0.9/0.5) + (−0.4)·ln(0.1/0.5) = 0.4·0.587787 + 0.4·1.609438
    close(psi([50, 50], [90, 10]), 0.8788898309);
    close(psi([30, 70], [3, 7]), 0);
    // An empty reference bin is floored at 1e-4: −0.5·ln(0.5) + 0.4999·ln(0.5/0.0001)
    close(psi([100, 0], [50, 50]), 4.6043184667);
    assert.equal(psi([0, 0], [1, 2]), null);
    assert.equal(psi([1, 2], [0, 0]), null);
    assert.throws(() => psi([1], [1, 2]));
  });

  test('histogram: equal-width bins over [0, 1], 1.0 in the last bin', () => {
    assert.deepEqual(histogram([0, 0.05, 0.1, 0.55, 0.999, 1], 10), [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    assert.deepEqual(histogram([0.2, 0.7], 2), [1, 1]);
  });

  test('weeks are Mondays (UTC), oldest first, this week last', () => {
    assert.deepEqual(lastMondays(3, new Date('2026-03-12T15:00:00Z')), ['2026-02-23', '2026-03-02', '2026-03-09']);
    assert.deepEqual(lastMondays(1, new Date('2026-03-09T00:00:00Z')), ['2026-03-09']);
    assert.deepEqual(lastMondays(1, new Date('2026-03-15T23:59:00Z')), ['2026-03-09']);
  });
});
