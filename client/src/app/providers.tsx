import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { useState, type ReactNode } from 'react';
import { isUnauthorized } from '../lib/error-text';
import { clearLocalSession, goToLogin } from '../lib/session';
import { trpc } from '../lib/trpc';

/**
 * Section 4: any 401 clears everything and returns to /login. Only inside the signed-in area: on
 * the public pages a 401 is an ordinary answer (a wrong password on /login).
 */
function on401(queryClient: QueryClient, err: unknown): void {
  if (!isUnauthorized(err) || !window.location.pathname.startsWith('/chat')) return;
  clearLocalSession(queryClient);
  goToLogin(window.location.pathname + window.location.search);
}

function makeQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (err) => on401(queryClient, err) }),
    mutationCache: new MutationCache({ onError: (err) => on401(queryClient, err) }),
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  return queryClient;
}

/** React Query + tRPC; subscriptions (analysis progress, streamed replies) go over SSE. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [client] = useState(() =>
    trpc.createClient({
      links: [
        splitLink({
          condition: (op) => op.type === 'subscription',
          true: httpSubscriptionLink({ url: '/trpc' }),
          false: httpBatchLink({ url: '/trpc' }),
        }),
      ],
    }),
  );
  return (
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}
