import { ZMeResult } from '@contracts/schemas/auth.js';
import { protectedProcedure } from '../../trpc.js';

/** The signed-in user, which the client loads before showing the /chat area. */
export const meProcedure = protectedProcedure.output(ZMeResult).query(({ ctx }) => ({
  success: true as const,
  user: { id: ctx.auth.userId, name: ctx.auth.name, email: ctx.auth.email },
}));
