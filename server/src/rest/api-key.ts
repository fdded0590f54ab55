import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API_KEY_MESSAGES,
  ZApiKeyIdInput,
  ZApiKeyList,
  ZCreateApiKeyInput,
  ZCreatedApiKey,
} from '@contracts/schemas/api-key.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';
import { createApiKey } from '../services/api-key/create-api-key.js';
import { listApiKeys } from '../services/api-key/list-api-keys.js';
import { revokeApiKey } from '../services/api-key/revoke-api-key.js';
import { envelope, errorResponse, ZOk } from './openapi/responses.js';

const tags = ['api-keys'];
// A key handed to a script must not mint or revoke keys: a password session only.
const config = { auth: 'key-manager' } as const;

/** /api/api-keys: list, create (the key is in this one response only), revoke. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  // '' rather than '/': the collection's path is /api/api-keys, without a trailing slash.
  app.get(
    '',
    {
      config,
      schema: {
        tags,
        summary: 'List your active API keys (never the keys themselves)',
        response: { 200: envelope(ZApiKeyList) },
      },
    },
    async (req, reply) => {
      const keys = await listApiKeys({ db, userId: req.signedIn().userId });
      return reply.header('cache-control', 'private, no-store').send({ success: true, data: { keys } });
    },
  );

  app.post(
    '',
    {
      config,
      schema: {
        tags,
        summary: 'Create an API key (with team_id, a team key: team admins only); the key is in this response only',
        body: ZCreateApiKeyInput,
        response: {
          201: envelope(ZCreatedApiKey),
          403: errorResponse(TEAM_MESSAGES.adminOnly),
          404: errorResponse(TEAM_MESSAGES.notFound),
          409: errorResponse(API_KEY_MESSAGES.tooMany),
        },
      },
    },
    async (req, reply) => {
      const { name, team_id: teamId } = req.body;
      const data = await createApiKey({ db, meta: req.meta(), userId: req.signedIn().userId, name, teamId });
      return reply
        .status(201)
        .header('cache-control', 'private, no-store')
        .send({ success: true, message: API_KEY_MESSAGES.created, data });
    },
  );

  app.delete(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: ZApiKeyIdInput,
        response: { 200: ZOk, 404: errorResponse(API_KEY_MESSAGES.notFound) },
      },
    },
    async (req) => {
      await revokeApiKey({ db, meta: req.meta(), userId: req.signedIn().userId, id: req.params.id });
      return { success: true as const, message: API_KEY_MESSAGES.revoked };
    },
  );
};

export default routes;
