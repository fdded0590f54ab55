import { afterAll, beforeAll } from 'vitest';
import { createUser, type TTestUser } from './factories.js';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';

export interface TAppWithUser {
  t: TestApp;
  u: TTestUser;
}

/**
 * The app and one signed-in user for the describe block it is called in, closed after it: the
 * setup the upload suites (hostile files, caps, the finalizer) share. The fields are filled by
 * beforeAll, so read them inside tests and hooks, not while the block is being declared.
 */
export function useAppWithUser(opts: TestAppOptions = {}): TAppWithUser {
  const suite = {} as TAppWithUser;
  beforeAll(async () => {
    suite.t = await createTestApp(opts);
    suite.u = await createUser(suite.t.deps);
  });
  afterAll(async () => {
    await suite.t?.close();
  });
  return suite;
}
