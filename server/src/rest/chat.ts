import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../lib/app-error.js';
import { ANALYSIS_MESSAGES, type TAnalysisStatus } from '@contracts/schemas/analysis.js';
import { CHAT_MESSAGES, ZLegacyChatBody } from '@contracts/schemas/chat.js';
import { createAnalysis } from '../services/analysis/create-analysis.js';
import { waitForAnalysis } from '../services/analysis/follow-analysis.js';
import { readUploadParts } from '../services/analysis/read-upload-parts.js';
import { requireAuth } from '../services/auth/require-auth.js';
import { sendChatMessage } from '../services/chat/stream-chat-reply.js';
import { parseWith, sendError } from './reply.js';

const MESSAGES: Record<TAnalysisStatus, string> = {
  queued: 'Analysis queued',
  processing: 'Analysis in progress',
  completed: 'Analysis completed',
  refused: 'The image could not be analysed',
  failed: ANALYSIS_MESSAGES.failed,
};

/**
 * Unexpected failures answer the spec's message for the call. Only the error's name and code are
 * logged: a database error's message quotes the query's parameters, which may be patient data.
 */
function orFallback(req: FastifyRequest, err: unknown, message: string): unknown {
  if (isAppError(err) || (err as { statusCode?: number }).statusCode) return err;
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  req.log.error({ errName: e.name, errCode: e.code ?? e.cause?.code }, 'unexpected error in a chat route');
  return new AppError('INTERNAL', message, { cause: err });
}

async function upload(req: FastifyRequest) {
  const auth = requireAuth(await req.resolveAuth());
  if (!req.isMultipart()) throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.imageRequired);
  const raw = await readUploadParts(req.parts());
  return { auth, created: await createAnalysis(req.server.deps, req.meta(), auth.userId, raw) };
}

/**
 * The spec's chat calls. POST /chat/analyzer answers once the report is stored (up to
 * ANALYSIS_WAIT_MS, else 202 with the chat id); `?wait=0`, or POST /chat/upload, answers at once
 * so the web client can follow the progress over tRPC (analysis.onProgress). tRPC has no upload
 * procedure: its Fastify adapter buffers a whole body with no size limit, while this route
 * counts the image's bytes as they arrive and stops at 10 MB.
 */
const routes: FastifyPluginAsync = async (app) => {
  const { deps } = app;

  app.post<{ Querystring: { wait?: string } }>('/analyzer', async (req, reply) => {
    try {
      const { auth, created } = await upload(req);
      const waitMs = req.query.wait === '0' ? 0 : deps.config.ANALYSIS_WAIT_MS;
      const status = waitMs > 0 ? await waitForAnalysis(deps, auth.userId, created.analysisId, waitMs) : created.status;
      const data = { chat_id: created.chatId, analysis_id: created.analysisId, status };
      if (status === 'failed') return reply.status(500).send({ success: false, message: MESSAGES.failed, code: 'ANALYSIS_FAILED', data });
      const done = status === 'completed' || status === 'refused';
      return reply.status(done ? 200 : 202).send({ success: true, message: MESSAGES[status], data });
    } catch (err) {
      return sendError(reply, orFallback(req, err, ANALYSIS_MESSAGES.failed));
    }
  });

  app.post('/upload', async (req, reply) => {
    try {
      const { created } = await upload(req);
      return reply.status(202).send({
        success: true,
        message: MESSAGES.queued,
        data: { chat_id: created.chatId, analysis_id: created.analysisId, status: created.status },
      });
    } catch (err) {
      return sendError(reply, orFallback(req, err, ANALYSIS_MESSAGES.failed));
    }
  });

  app.post('/chat', async (req, reply) => {
    try {
      const auth = requireAuth(await req.resolveAuth());
      const body = parseWith(ZLegacyChatBody, req.body);
      const out = await sendChatMessage(deps, req.meta(), auth.userId, { chatId: body.chat_id, query: body.query });
      return reply.send({ success: true, message: 'Message sent', data: { response: out.response, message_id: out.replyId } });
    } catch (err) {
      return sendError(reply, orFallback(req, err, CHAT_MESSAGES.failed));
    }
  });
};

export default routes;
