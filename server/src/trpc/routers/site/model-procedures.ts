import { z } from 'zod';
import { ZMessageResult } from '@contracts/schemas/auth.js';
import { ZComparison, ZModelIdInput, ZPromoteInput, ZRegistry } from '@contracts/schemas/models.js';
import {
  promoteModel,
  rollbackModel,
  shadowModel,
  unshadowModel,
} from '../../../services/models/change-model-status.js';
import { compareModels } from '../../../services/models/compare-models.js';
import { listRegistry } from '../../../services/models/list-registry.js';
import { siteAdminProcedure, siteAdminSessionProcedure } from '../../trpc.js';

const done = (message: string) => ({ success: true as const, message });

/** The model registry (issue 47), the REST /api/site/models twins: site administrators only. */
export const modelProcedures = {
  models: siteAdminProcedure.output(ZRegistry).query(({ ctx }) => listRegistry({ ...ctx.deps })),

  modelComparison: siteAdminProcedure
    .input(ZModelIdInput)
    .output(ZComparison)
    .query(({ ctx, input }) => compareModels({ ...ctx.deps, modelId: input.id })),

  shadowModel: siteAdminProcedure
    .input(ZModelIdInput)
    .output(ZMessageResult)
    .mutation(async ({ ctx, input }) =>
      done(await shadowModel({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, modelId: input.id })),
    ),

  unshadowModel: siteAdminProcedure
    .input(ZModelIdInput)
    .output(ZMessageResult)
    .mutation(async ({ ctx, input }) =>
      done(await unshadowModel({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, modelId: input.id })),
    ),

  // From a session only, as applying site thresholds (an API key must not change every new analysis).
  promoteModel: siteAdminSessionProcedure
    .input(ZModelIdInput.extend(ZPromoteInput.shape))
    .output(ZMessageResult)
    .mutation(async ({ ctx, input }) =>
      done(
        await promoteModel({
          ...ctx.deps,
          meta: ctx.meta,
          userId: ctx.auth.userId,
          modelId: input.id,
          confirm: input.confirm === true,
        }),
      ),
    ),

  rollbackModel: siteAdminSessionProcedure
    .input(z.object({}).optional())
    .output(ZMessageResult)
    .mutation(async ({ ctx }) => done(await rollbackModel({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId }))),
};
