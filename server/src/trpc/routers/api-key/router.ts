import {
  ZApiKeyIdInput,
  ZApiKeyList,
  ZCreateApiKeyInput,
  ZCreatedApiKey,
  ZRevokeApiKeyOutput,
} from '@contracts/schemas/api-key.js';
import { createApiKey } from '../../../services/api-key/create-api-key.js';
import { listApiKeys } from '../../../services/api-key/list-api-keys.js';
import { revokeApiKey } from '../../../services/api-key/revoke-api-key.js';
import { keyManagerProcedure, router } from '../../trpc.js';

/** Personal API keys for programs (batch scripts, PACS bridges): Settings → API keys. */
export const apiKeyRouter = router({
  list: keyManagerProcedure.output(ZApiKeyList).query(async ({ ctx }) => ({
    keys: await listApiKeys({ ...ctx.deps, userId: ctx.auth.userId }),
  })),

  create: keyManagerProcedure
    .input(ZCreateApiKeyInput)
    .output(ZCreatedApiKey)
    .mutation(({ ctx, input }) =>
      createApiKey({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, name: input.name, teamId: input.team_id }),
    ),

  revoke: keyManagerProcedure
    .input(ZApiKeyIdInput)
    .output(ZRevokeApiKeyOutput)
    .mutation(({ ctx, input }) => revokeApiKey({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, id: input.id })),
});
