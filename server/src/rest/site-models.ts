import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SITE_MESSAGES } from '@contracts/schemas/site.js';
import { MODEL_MESSAGES, ZComparison, ZPromoteInput, ZRegistry } from '@contracts/schemas/models.js';
import { compareModels } from '../services/models/compare-models.js';
import { promoteModel, rollbackModel, shadowModel, unshadowModel } from '../services/models/change-model-status.js';
import { listRegistry } from '../services/models/list-registry.js';
import { envelope, errorResponse, ZOk } from './openapi/responses.js';

const tags = ['site'];
const config = { auth: 'site-admin' } as const;
const adminsOnly = { 403: errorResponse(`${SITE_MESSAGES.adminsOnly}`) };
const ZIdParams = z.object({ id: z.string().min(1).max(64) });
const notFound = { 404: errorResponse(MODEL_MESSAGES.notFound) };

/** The model registry (issue 47), for site administrators; the same services as the tRPC site.models* procedures. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '',
    {
      config,
      schema: {
        tags,
        summary: 'The registry: every model with its status (live, shadow, candidate, retired) and the history',
        response: { 200: envelope(ZRegistry), ...adminsOnly },
      },
    },
    async () => ({ success: true as const, data: await listRegistry({ ...deps }) }),
  );

  app.post(
    '/rollback',
    {
      config,
      schema: {
        tags,
        summary: 'Make the previous live model live again for new analyses',
        response: { 200: ZOk, ...adminsOnly, 409: errorResponse(MODEL_MESSAGES.noPrevious) },
      },
    },
    async (req) => ({
      success: true as const,
      message: await rollbackModel({ ...deps, meta: req.meta(), userId: req.signedIn().userId }),
    }),
  );

  app.post(
    '/:id/shadow',
    {
      config,
      schema: {
        tags,
        summary: 'Run a model in shadow on every new study (outputs stored apart, never shown to clinicians)',
        params: ZIdParams,
        response: { 200: ZOk, ...adminsOnly, ...notFound, 409: errorResponse('Shadow limit or memory limit reached') },
      },
    },
    async (req) => ({
      success: true as const,
      message: await shadowModel({ ...deps, meta: req.meta(), userId: req.signedIn().userId, modelId: req.params.id }),
    }),
  );

  app.delete(
    '/:id/shadow',
    {
      config,
      schema: {
        tags,
        summary: 'Stop running a model in shadow',
        params: ZIdParams,
        response: { 200: ZOk, ...adminsOnly, ...notFound, 409: errorResponse(MODEL_MESSAGES.notShadow) },
      },
    },
    async (req) => ({
      success: true as const,
      message: await unshadowModel({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        modelId: req.params.id,
      }),
    }),
  );

  app.post(
    '/:id/promote',
    {
      config,
      schema: {
        tags,
        summary: 'Make a model live for new analyses (needs operating points, and enough compared studies or confirm)',
        params: ZIdParams,
        body: ZPromoteInput.optional(),
        response: { 200: ZOk, ...adminsOnly, ...notFound, 409: errorResponse('Refused with the reason') },
      },
    },
    async (req) => ({
      success: true as const,
      message: await promoteModel({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        modelId: req.params.id,
        confirm: req.body?.confirm === true,
      }),
    }),
  );

  app.get(
    '/:id/comparison',
    {
      config,
      schema: {
        tags,
        summary: "A shadow model against the live results on the department's signed studies",
        params: ZIdParams,
        response: { 200: envelope(ZComparison), ...adminsOnly, ...notFound },
      },
    },
    async (req) => ({ success: true as const, data: await compareModels({ ...deps, modelId: req.params.id }) }),
  );
};

export default routes;
