import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FEEDBACK_MESSAGES, ZFeedbackBody, ZFeedbackEntry } from '@contracts/schemas/feedback.js';
import { listFeedback } from '../services/feedback/list-feedback.js';
import { saveFeedback } from '../services/feedback/save-feedback.js';
import { envelope, errorResponse, ZOk } from './openapi/responses.js';

const tags = ['feedback'];
const config = { auth: 'user' } as const;
const notFound = {
  404: errorResponse(`${FEEDBACK_MESSAGES.chatNotFound}; another account's chat answers exactly like a missing one`),
};

/** Clinician feedback on findings (issue 17); the same services as the tRPC feedback router. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '',
    {
      config,
      schema: {
        tags,
        summary: "Agree or disagree with one finding of a chat's newest analysis (edits the caller's earlier feedback)",
        body: ZFeedbackBody,
        response: { 200: ZOk, ...notFound, 409: errorResponse(FEEDBACK_MESSAGES.noAnalysis) },
      },
    },
    async (req) => {
      const { chat_id: chatId, ...rest } = req.body;
      await saveFeedback({ ...deps, meta: req.meta(), userId: req.signedIn().userId, input: { chatId, ...rest } });
      return { success: true as const, message: FEEDBACK_MESSAGES.saved };
    },
  );

  app.get(
    '/:chat_id',
    {
      config,
      schema: {
        tags,
        summary: "The caller's feedback on a chat's newest analysis",
        params: z.object({ chat_id: z.string().max(100) }),
        response: {
          200: envelope(z.object({ analysis_id: z.uuid().nullable(), feedback: z.array(ZFeedbackEntry) })),
          ...notFound,
        },
      },
    },
    async (req) => {
      const out = await listFeedback({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        chatId: req.params.chat_id,
      });
      return { success: true as const, data: { analysis_id: out.analysisId, feedback: out.feedback } };
    },
  );
};

export default routes;
