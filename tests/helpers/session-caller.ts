import type { AppDeps } from '../../server/src/deps.js';
import { createContextInner } from '../../server/src/trpc/context.js';
import { appRouter } from '../../server/src/trpc/router.js';
import { createCallerFactory } from '../../server/src/trpc/trpc.js';
import type { TTestUser } from './factories.js';

const createCaller = createCallerFactory(appRouter);

/**
 * The app's tRPC router called in-process as `user` signed in with a password session (no
 * session row: procedures that end "this" session are tested over HTTP instead).
 */
export function sessionCaller(deps: AppDeps, user: TTestUser) {
  return createCaller(
    createContextInner({
      deps,
      auth: { userId: user.user.id, name: user.user.name, email: user.user.email, sessionId: null, via: 'session' },
    }),
  );
}
