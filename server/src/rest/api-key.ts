import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { API_KEY_MESSAGES, ZApiKeyIdInput, ZCreateApiKeyInput } from '@contracts/schemas/api-key.js';
import { createApiKey } from '../services/api-key/create-api-key.js';
import { listApiKeys } from '../services/api-key/list-api-keys.js';
import { requireKeyManager } from '../services/api-key/require-key-manager.js';
import { revokeApiKey } from '../services/api-key/revoke-api-key.js';
import type { TAuth } from '../services/auth/resolve-session.js';
import { parseWith, sendError } from './reply.js';

async function keyManager(req: FastifyRequest): Promise<TAuth> {
  const auth = await req.resolveAuth();
  if (!auth) throw new AppError('UNAUTHORIZED', 'Authentication required');
  return requireKeyManager(auth);
}

/** /api/api-keys: list, create (the key is in this one response only), revoke. */
const routes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;

  app.get('/', async (req, reply) => {
    try {
      const auth = await keyManager(req);
      return reply.header('cache-control', 'private, no-store').send({ success: true, data: { keys: await listApiKeys({ db, userId: auth.userId }) } });
    } catch (err) {
      return sendError(reply, err);
    }
  });

  app.post('/', async (req, reply) => {
    try {
      const auth = await keyManager(req);
      const body = parseWith(ZCreateApiKeyInput, req.body);
      const data = await createApiKey({ db, meta: req.meta(), userId: auth.userId, name: body.name });
      return reply.status(201).header('cache-control', 'private, no-store').send({ success: true, message: API_KEY_MESSAGES.created, data });
    } catch (err) {
      return sendError(reply, err);
    }
  });

  app.delete<{ Params: { id: string } }>('/:id', async (req, reply) => {
    try {
      const auth = await keyManager(req);
      const { id } = parseWith(ZApiKeyIdInput, req.params);
      await revokeApiKey({ db, meta: req.meta(), userId: auth.userId, id });
      return reply.send({ success: true, message: API_KEY_MESSAGES.revoked });
    } catch (err) {
      return sendError(reply, err);
    }
  });
};

export default routes;
