import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { TRPC_MAX_BATCH_SIZE } from '@contracts/trpc-limits';
import { useState, type ReactNode } from 'react';
import { onErrorLink } from '../lib/on-error-link';
import { makeRecheckSpace } from '../lib/recheck-space';
import { makeSignOutOn401 } from '../lib/sign-out-on-401';
import { trpc } from '../lib/trpc';

function makeClients() {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        signOutOn401(err);
        recheckSpace(err, query);
      },
    }),
    mutationCache: new MutationCache({ onError: (err) => signOutOn401(err) }),
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
  });
  const signOutOn401 = makeSignOutOn401(queryClient);
  const recheckSpace = makeRecheckSpace(queryClient);
  const trpcClient = trpc.createClient({
    links: [
      onErrorLink(signOutOn401),
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: '/trpc' }),
        // The server refuses longer batches (maxBatchSize).
        false: httpBatchLink({ url: '/trpc', maxItems: TRPC_MAX_BATCH_SIZE }),
      }),
    ],
  });
  return { queryClient, trpcClient };
}

/** React Query + tRPC; subscriptions (analysis progress, streamed replies) go over SSE. */
export function Providers({ children }: { children: ReactNode }) {
  const [{ queryClient, trpcClient }] = useState(makeClients);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}
