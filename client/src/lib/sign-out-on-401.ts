import type { QueryClient } from '@tanstack/react-query';
import { isUnauthorized } from './error-text';
import { clearLocalSession, goToLogin } from './session';

/**
 * Section 4: any 401 inside the signed-in area clears everything and returns to /login (with
 * the location remembered). On the public pages a 401 is an ordinary answer (a wrong password
 * on /login), so it is left to the screen.
 *
 * This is the app's only 401 path: providers.tsx wires it into React Query's QueryCache and
 * MutationCache (queries, tRPC mutations, the upload mutation) and into the tRPC link (calls
 * made outside React Query and subscriptions). One failure can reach it twice (a tRPC query
 * passes the link and the cache); the first call leaves /chat, so the second returns early.
 */
export function makeSignOutOn401(queryClient: QueryClient): (err: unknown) => void {
  return (err) => {
    if (!isUnauthorized(err) || !window.location.pathname.startsWith('/chat')) return;
    clearLocalSession(queryClient);
    goToLogin(window.location.pathname + window.location.search);
  };
}
