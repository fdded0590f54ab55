import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '@server/app-router';

/** Typed hooks for every procedure of the server's appRouter. */
export const trpc = createTRPCReact<AppRouter>();
export type { AppRouter };
