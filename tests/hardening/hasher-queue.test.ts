import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { isAppError } from '../../server/src/lib/app-error.js';
import { createPasswordHasher, HASHER_BUSY_MESSAGE } from '../../server/src/lib/password.js';

/**
 * Issue 23 N6: a login flood from one address queued argon2 work without bound, so everyone
 * else's sign-in (and the CPU) waited behind it. Past the queue limit a hash is refused at once.
 */
describe('argon2 queue limit (issue 23 N6)', () => {
  test('with one slot and a queue of one, the third concurrent hash answers 429 and nothing else fails', async () => {
    const hasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }, 1, 1);
    const settled = await Promise.allSettled([hasher.hash('one pass'), hasher.hash('two pass'), hasher.hash('three')]);
    assert.equal(settled[0]?.status, 'fulfilled');
    assert.equal(settled[1]?.status, 'fulfilled');
    const third = settled[2];
    assert.equal(third?.status, 'rejected');
    const err = (third as PromiseRejectedResult).reason as unknown;
    assert.ok(isAppError(err) && err.code === 'TOO_MANY_REQUESTS', String(err));
    assert.equal((err as Error).message, HASHER_BUSY_MESSAGE);
    // Once the queue drains, hashing works again.
    assert.match(await hasher.hash('four'), /^\$argon2id\$/);
    assert.equal(hasher.stats.peakInFlight, 1);
  });
});
