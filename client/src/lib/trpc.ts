import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '../../../server/src/trpc/router';

/** Typed hooks for every procedure of the server's appRouter. */
export const trpc = createTRPCReact<AppRouter>();
