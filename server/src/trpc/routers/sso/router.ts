import { z } from 'zod';
import { SSO_MESSAGES, ZLinkedIdentities, ZUnlinkIdentityInput } from '@contracts/schemas/sso.js';
import { listLinkedIdentities, unlinkIdentity } from '../../../services/sso/linked-identities.js';
import { passwordSessionProcedure, protectedProcedure, router } from '../../trpc.js';

/** The signed-in account's hospital sign-ins (Settings → Profile); REST twins in rest/sso.ts. */
export const ssoRouter = router({
  identities: protectedProcedure
    .output(ZLinkedIdentities)
    .query(({ ctx }) => listLinkedIdentities({ ...ctx.deps, userId: ctx.auth.userId })),

  // A way to sign in is an account change: a session, never an API key.
  unlinkIdentity: passwordSessionProcedure
    .input(ZUnlinkIdentityInput)
    .output(z.object({ success: z.literal(true), message: z.string() }))
    .mutation(async ({ ctx, input }) => {
      await unlinkIdentity({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, identityId: input.identityId });
      return { success: true as const, message: SSO_MESSAGES.unlinked };
    }),
});
