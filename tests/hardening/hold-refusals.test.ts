import assert from 'node:assert/strict';
import { afterEach, describe, test, vi } from 'vitest';
import { createRefusalHold } from '../../server/src/lib/hold-refusal.js';
import { LIMIT_MESSAGES } from '../../server/src/services/auth/auth-limits.js';
import { createTestApp } from '../helpers/test-app.js';
import { FAST_HASH_ENV, PASSWORD, randomIp, rest, uniqueEmail } from '../auth/auth-helpers.js';

/**
 * Issue 23 N6 / bench:login-flood: a client that retries the moment it is refused made the
 * refusals themselves the server's main work. A 429 now waits before it is sent, for at most a
 * bounded number of refusals at once.
 */
describe('refusal hold (unit, fake timers)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const settledFlags = (promises: Promise<void>[]) => {
    const done = promises.map(() => false);
    promises.forEach((p, i) => void p.then(() => (done[i] = true)));
    return done;
  };

  test('a refusal waits the delay; past the cap one is sent at once', async () => {
    vi.useFakeTimers();
    const hold = createRefusalHold({ delayMs: 1000, maxHeld: 2 });
    const done = settledFlags([hold.hold(), hold.hold(), hold.hold()]);
    await vi.advanceTimersByTimeAsync(0);
    assert.deepEqual(done, [false, false, true], 'the third is past the cap');
    assert.equal(hold.held(), 2);
    await vi.advanceTimersByTimeAsync(999);
    assert.deepEqual(done, [false, false, true]);
    await vi.advanceTimersByTimeAsync(1);
    assert.deepEqual(done, [true, true, true]);
    assert.equal(hold.held(), 0);
  });

  test('close() sends every waiting refusal, and later ones are not held', async () => {
    vi.useFakeTimers();
    const hold = createRefusalHold({ delayMs: 60_000, maxHeld: 5 });
    const done = settledFlags([hold.hold(), hold.hold()]);
    await vi.advanceTimersByTimeAsync(0);
    assert.deepEqual(done, [false, false]);
    hold.close();
    const later = settledFlags([hold.hold()]);
    await vi.advanceTimersByTimeAsync(0);
    assert.deepEqual([...done, ...later], [true, true, true]);
  });

  test('a delay of 0 holds nothing', async () => {
    const hold = createRefusalHold({ delayMs: 0, maxHeld: 5 });
    await hold.hold();
    assert.equal(hold.held(), 0);
  });
});

describe('refusal hold in the server', () => {
  test('a 429 waits, the one past the cap does not, and closing sends the waiting one', async () => {
    const t = await createTestApp({
      env: {
        ...FAST_HASH_ENV,
        RATE_LIMIT_DISABLED: 'true',
        AUTH_ATTEMPTS_PER_IP_PER_MINUTE: '1',
        REFUSAL_DELAY_MS: '60000',
        REFUSAL_DELAY_MAX_HELD: '1',
      },
    });
    let closed = false;
    try {
      const ip = randomIp();
      const login = () => rest(t.app, 'POST', '/api/auth/login', { email: uniqueEmail(), password: PASSWORD }, { ip });
      assert.equal((await login()).status, 401, 'the one attempt of the minute is checked');
      let firstSettled = false;
      const first = login().finally(() => (firstSettled = true));
      await vi.waitFor(() => assert.equal(t.app.refusalsHeld(), 1), { timeout: 10_000, interval: 20 });
      const second = await login();
      assert.equal(second.status, 429, 'past the cap: sent at once');
      assert.equal(second.body.message, LIMIT_MESSAGES.attempts('1 minute'));
      assert.equal(firstSettled, false, 'the held refusal is still waiting');
      await t.close();
      closed = true;
      const answer = await first;
      assert.equal(answer.status, 429);
      assert.equal(answer.body.message, LIMIT_MESSAGES.attempts('1 minute'));
    } finally {
      if (!closed) await t.close();
    }
  });
});
