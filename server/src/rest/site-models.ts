import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SITE_MESSAGES } from '@contracts/schemas/site.js';
import {
  MODEL_IMPORT_MESSAGES,
  MODEL_MESSAGES,
  ZComparison,
  ZImportedModel,
  ZPromoteInput,
  ZRegistry,
} from '@contracts/schemas/models.js';
import { AppError } from '../lib/app-error.js';
import { compareModels } from '../services/models/compare-models.js';
import { importUploadedModel } from '../services/models/import-uploaded-model.js';
import { promoteModel, rollbackModel, shadowModel, unshadowModel } from '../services/models/change-model-status.js';
import { listRegistry } from '../services/models/list-registry.js';
import { envelope, errorResponse, ZOk } from './openapi/responses.js';
import { multipartBody } from './zod-compilers.js';

const tags = ['site'];
const config = { auth: 'site-admin' } as const;
// Promotion and rollback change what every new analysis says, as applying site thresholds does:
// from a signed-in session only, never an API key (services/auth/auth-level.ts).
const sessionConfig = { auth: 'site-admin-session' } as const;
const adminsOnly = { 403: errorResponse(`${SITE_MESSAGES.adminsOnly}`) };
const ZIdParams = z.object({ id: z.string().min(1).max(64) });
const notFound = { 404: errorResponse(MODEL_MESSAGES.notFound) };
const ZImportForm = multipartBody(
  z.object({
    file: z.string().describe('The ONNX file (at most MODEL_IMPORT_MAX_MB)').meta({ format: 'binary' }),
    contract: z.enum(['torchxrayvision', 'manifest']).describe('The import contract (docs/models.md)'),
    name: z.string().describe("The model's id in the registry: 1-48 lower-case letters, digits or dashes"),
    version: z.string().optional().describe("Its version (default 1, or the manifest's)"),
    manifest: z
      .string()
      .optional()
      .describe('With contract manifest: the manifest (JSON file, contracts/model/manifest.ts)')
      .meta({ format: 'binary' }),
  }),
);

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
    '',
    {
      config,
      schema: {
        tags,
        summary: 'Import a model: the worker checks it as `npm run model -- import` does; it becomes a candidate',
        description:
          'Multipart: `file` (the .onnx), `contract`, `name`, optional `version`, and `manifest` (a JSON file) with the ' +
          'manifest contract. The server stores the upload and a worker checks it (contract, opset, shapes, the ' +
          'fixture films) within MODEL_IMPORT_WAIT_MS; a refusal names what does not fit and nothing is kept.',
        consumes: ['multipart/form-data'],
        body: ZImportForm,
        response: {
          200: envelope(ZImportedModel).describe('Imported as a candidate; the message names the fixture-film runs'),
          400: errorResponse(MODEL_IMPORT_MESSAGES.fileRequired),
          ...adminsOnly,
          409: errorResponse('A model of that name is already in the registry'),
          413: errorResponse('The file is over MODEL_IMPORT_MAX_MB'),
          422: errorResponse('The model does not fit its contract: the reason'),
          503: errorResponse('No worker answered within MODEL_IMPORT_WAIT_MS'),
        },
      },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw new AppError('BAD_REQUEST', MODEL_IMPORT_MESSAGES.fileRequired);
      const maxBytes = deps.config.MODEL_IMPORT_MAX_MB * 1024 * 1024;
      const outcome = await importUploadedModel({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        // One more byte than the limit, so the counting in the service sees the file cross it.
        parts: req.parts({ limits: { fileSize: Math.floor(maxBytes) + 1, files: 2, fields: 10, fieldSize: 1024 } }),
      });
      if (!outcome.ok)
        return reply
          .status(outcome.status)
          .send({ success: false, message: outcome.message, code: outcome.status === 409 ? 'CONFLICT' : 'REFUSED' });
      return { success: true as const, message: outcome.message, data: { model: outcome.model } };
    },
  );

  app.post(
    '/rollback',
    {
      config: sessionConfig,
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
      config: sessionConfig,
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
