import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HISTORY_MESSAGES, ZLegacyChatIdBody, ZLegacyEditTitleBody } from '@contracts/schemas/history.js';
import { deleteChat } from '../services/history/delete-chat.js';
import { editChatTitle } from '../services/history/edit-chat-title.js';
import { getInitInfo } from '../services/history/get-init-info.js';
import { ZSpaceInput } from '@contracts/schemas/team.js';
import { envelope, errorResponse, ZOk } from './openapi/responses.js';

const tags = ['history'];
const config = { auth: 'user' } as const;
const notFound = {
  404: errorResponse(`${HISTORY_MESSAGES.chatNotFound}; another account's chat answers exactly like a missing one`),
};

/** A chat as the spec's get-init-info lists it (snake_case, every message included). */
const ZLegacyChat = z.object({
  chat_id: z.uuid(),
  title: z.string(),
  image_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  profile: z.record(z.string(), z.unknown()).describe('The patient snapshot the chat was started with'),
  messages: z.array(
    z.object({
      role: z.string(),
      content: z.string(),
      timestamp: z.string(),
      disease: z.string().nullable(),
      image_url: z.string().nullable(),
    }),
  ),
});

/** The spec's history calls; the newest INIT_INFO_CHAT_CAP chats (see get-init-info.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.get(
    '/get-init-info',
    {
      config,
      schema: {
        tags,
        summary: 'The newest chats, with their messages',
        querystring: ZSpaceInput,
        response: { 200: envelope(z.object({ chats: z.array(ZLegacyChat) })) },
      },
    },
    async (req) => {
      const data = await getInitInfo({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        teamId: req.query.team,
      });
      return { success: true as const, data };
    },
  );

  app.put(
    '/edit-title',
    {
      config,
      schema: {
        tags,
        summary: 'Rename a chat',
        body: ZLegacyEditTitleBody,
        response: {
          200: envelope(z.object({ chat_id: z.uuid(), title: z.string(), updated_at: z.string() })),
          ...notFound,
        },
      },
    },
    async (req) => {
      const { chat_id: chatId, title } = req.body;
      const out = await editChatTitle({ ...deps, meta: req.meta(), userId: req.signedIn().userId, chatId, title });
      return {
        success: true as const,
        message: 'Chat title updated',
        data: { chat_id: out.id, title: out.title, updated_at: out.updatedAt },
      };
    },
  );

  app.delete(
    '/delete',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a chat (not one whose radiology report is signed)',
        body: ZLegacyChatIdBody,
        response: { 200: ZOk, ...notFound, 409: errorResponse(HISTORY_MESSAGES.signedReport) },
      },
    },
    async (req) => {
      await deleteChat({ ...deps, meta: req.meta(), userId: req.signedIn().userId, chatId: req.body.chat_id });
      return { success: true as const, message: 'Chat deleted successfully' };
    },
  );
};

export default routes;
