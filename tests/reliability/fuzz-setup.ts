import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createChat, createProfile, createUser } from '../helpers/factories.js';
import { testPatientName } from '../helpers/test-patients.js';
import { FUZZ_RUNS, type TCaller } from './fuzz-kit.js';

/** Cheap hashing, and security limits out of the way: the fuzzer is not testing them. */
export const FUZZ_ENV = {
  ARGON2_MEMORY_KIB: '1024',
  ARGON2_TIME_COST: '1',
  RATE_LIMIT_DISABLED: 'true',
  LOGIN_FAILURES_PER_ACCOUNT: '1000000',
  LOGIN_FAILURES_PER_IP: '1000000',
  SIGNUPS_PER_IP_PER_HOUR: '1000000',
  SIGNUPS_PER_EMAIL_PER_HOUR: '1000000',
  RESET_REQUESTS_PER_IP_PER_HOUR: '1000000',
  RESET_REQUESTS_PER_EMAIL_PER_HOUR: '1000000',
};

export function createFuzzApp(): Promise<TestApp> {
  return createTestApp({ env: FUZZ_ENV });
}

export interface TFuzzWorld {
  /** Real ids (own and another user's), so generated calls also reach past "not found". */
  ids: string[];
  callers: TCaller[];
}

/**
 * A fresh signed-in user with a profile and a chat (so a fuzzed logout or delete only ever ends
 * this world), and the four ways a request can arrive: anonymous, bearer, session cookie (as
 * the browser sends it, which the CSRF check lets through for JSON without a foreign Origin),
 * and a garbage credential.
 */
export async function createFuzzWorld(t: TestApp, other: string[] = []): Promise<TFuzzWorld> {
  const { user, token } = await createUser(t.deps);
  const profile = await createProfile(t.deps, user.id, { fullName: testPatientName('Fuzz') });
  const { chat, image } = await createChat(t.deps, user.id, { profile, withImage: true, withMessages: true });
  return {
    ids: [user.id, profile.id, chat.id, image?.id ?? chat.id, ...other],
    callers: [
      { name: 'anonymous', headers: () => ({}) },
      { name: 'bearer', headers: () => ({ authorization: `Bearer ${token}` }) },
      { name: 'cookie', headers: () => ({}), cookies: () => ({ token }) },
      // Only bytes a real socket can carry: Node's HTTP parser already answers 400 to a NUL in a header.
      {
        name: 'garbage credential',
        headers: () => ({ authorization: "Bearer cxr_'; drop table users;--\u00ff" }),
        cookies: () => ({ token: 'x'.repeat(5000) }),
      },
    ],
  };
}

/**
 * Checks `propertyOf` FUZZ_RUNS times for each target as each caller of that target's own world
 * (the stranger's ids mixed in), so a fuzzed logout or delete ends only that world.
 */
export async function fuzzAsEveryCaller<T, Ts>(
  t: TestApp,
  targets: readonly T[],
  propertyOf: (target: T, world: TFuzzWorld, caller: TCaller) => fc.IAsyncProperty<Ts>,
): Promise<void> {
  const stranger = await createFuzzWorld(t);
  for (const target of targets) {
    const world = await createFuzzWorld(t, stranger.ids);
    for (const caller of world.callers)
      await fc.assert(propertyOf(target, world, caller), { numRuns: FUZZ_RUNS, endOnFailure: true });
  }
}

export async function healthy(app: FastifyInstance): Promise<boolean> {
  const res = await app.inject({ method: 'GET', url: '/healthz' });
  return res.statusCode === 200;
}
