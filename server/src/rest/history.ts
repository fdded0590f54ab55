import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { ZLegacyChatIdBody, ZLegacyEditTitleBody } from '@contracts/schemas/history.js';
import type { TAuth } from '../services/auth/resolve-session.js';
import { deleteChat } from '../services/history/delete-chat.js';
import { editChatTitle } from '../services/history/edit-chat-title.js';
import { getInitInfo } from '../services/history/get-init-info.js';
import { parseWith, sendError } from './reply.js';

async function signedIn(req: FastifyRequest): Promise<TAuth> {
  const auth = await req.resolveAuth();
  if (!auth) throw new AppError('UNAUTHORIZED', 'Authentication required');
  return auth;
}

/** The spec's history calls; the newest INIT_INFO_CHAT_CAP chats (see get-init-info.ts). */
const routes: FastifyPluginAsync = async (app) => {
  const { deps } = app;

  app.get('/get-init-info', async (req, reply) => {
    try {
      const auth = await signedIn(req);
      const data = await getInitInfo({ db: deps.db, meta: req.meta(), userId: auth.userId });
      return reply.send({ success: true, data });
    } catch (err) {
      return sendError(reply, err);
    }
  });

  app.put('/edit-title', async (req, reply) => {
    try {
      const auth = await signedIn(req);
      const body = parseWith(ZLegacyEditTitleBody, req.body);
      const out = await editChatTitle({ db: deps.db, meta: req.meta(), userId: auth.userId, chatId: body.chat_id, title: body.title });
      return reply.send({
        success: true,
        message: 'Chat title updated',
        data: { chat_id: out.id, title: out.title, updated_at: out.updatedAt },
      });
    } catch (err) {
      return sendError(reply, err);
    }
  });

  app.delete('/delete', async (req, reply) => {
    try {
      const auth = await signedIn(req);
      const body = parseWith(ZLegacyChatIdBody, req.body);
      await deleteChat({ deps, meta: req.meta(), userId: auth.userId, chatId: body.chat_id });
      return reply.send({ success: true, message: 'Chat deleted successfully' });
    } catch (err) {
      return sendError(reply, err);
    }
  });
};

export default routes;
