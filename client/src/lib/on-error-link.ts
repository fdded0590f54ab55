import type { TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from './trpc';

/**
 * Passes every operation through unchanged and reports its error to `onError` first. It sees
 * what React Query's caches do not: `utils.client.*` calls and subscriptions.
 */
export function onErrorLink(onError: (err: unknown) => void): TRPCLink<AppRouter> {
  return () =>
    ({ next, op }) =>
      observable((observer) =>
        next(op).subscribe({
          next: (value) => observer.next(value),
          error: (err) => {
            onError(err);
            observer.error(err);
          },
          complete: () => observer.complete(),
        }),
      );
}
