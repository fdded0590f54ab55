import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ANALYSIS_MESSAGES,
  ZAnalysisPatient,
  ZAnalysisStatus,
  type TAnalysisStatus,
} from '@contracts/schemas/analysis.js';
import { CHAT_MESSAGES, ZLegacyChatBody } from '@contracts/schemas/chat.js';
import { AppError } from '../lib/app-error.js';
import { createAnalysis } from '../services/analysis/create-analysis.js';
import { waitForAnalysis } from '../services/analysis/follow-analysis.js';
import { readUploadParts } from '../services/analysis/read-upload-parts.js';
import { sendChatMessage } from '../services/chat/stream-chat-reply.js';
import { envelope, errorResponse, ZErrorEnvelope } from './openapi/responses.js';
import { multipartBody } from './zod-compilers.js';

const MESSAGES: Record<TAnalysisStatus, string> = {
  queued: 'Analysis queued',
  processing: 'Analysis in progress',
  completed: 'Analysis completed',
  refused: 'The image could not be analysed',
  failed: ANALYSIS_MESSAGES.failed,
};

const tags = ['analysis'];
const ZUpload = multipartBody(
  z.object({
    image: z.string().describe('The X-ray: JPEG, PNG, WebP or DICOM (.dcm), at most 10 MB').meta({ format: 'binary' }),
    profile: z
      .string()
      .optional()
      .describe(
        `JSON text of the patient: ${JSON.stringify(z.toJSONSchema(ZAnalysisPatient, { io: 'input', unrepresentable: 'any' }).properties)}`,
      ),
    profile_id: z.uuid().optional().describe('The saved patient profile the chat starts from'),
    team_id: z
      .uuid()
      .optional()
      .describe('The team the study belongs to (you must be a member); absent: your personal space'),
  }),
);
const ZUploadData = z.object({ chat_id: z.uuid(), analysis_id: z.uuid(), status: ZAnalysisStatus });
const uploadResponses = {
  413: errorResponse(ANALYSIS_MESSAGES.tooLarge),
  415: errorResponse('Not a JPEG, PNG, WebP or supported DICOM'),
  404: errorResponse('The profile_id names no profile of yours, or team_id no team of yours'),
};
// Unexpected failures of these calls answer the spec's message for the call (handle-error.ts).
const analysisConfig = { auth: 'user', failMessage: ANALYSIS_MESSAGES.failed } as const;

async function upload(req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.imageRequired);
  const raw = await readUploadParts(req.parts());
  const userId = req.signedIn().userId;
  return createAnalysis({ ...req.server.deps, meta: req.meta(), userId, teamId: raw.teamId, raw });
}

/**
 * The spec's chat calls. POST /chat/analyzer answers once the report is stored (up to
 * ANALYSIS_WAIT_MS, else 202 with the chat id); `?wait=0`, or POST /chat/upload, answers at once
 * so the web client can follow the progress over tRPC (analysis.onProgress). tRPC has no upload
 * procedure: its Fastify adapter buffers a whole body with no size limit, while this route
 * counts the image's bytes as they arrive and stops at 10 MB.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/analyzer',
    {
      config: analysisConfig,
      schema: {
        tags,
        summary: 'Upload an X-ray and wait for the analysis',
        description:
          'Starts a chat with the image and patient details and waits (up to ANALYSIS_WAIT_MS) for the report. DICOM: MONOCHROME1/2 radiographs ' +
          '(CR, DX, RG), uncompressed or JPEG baseline/lossless; an empty name and age are filled from the DICOM tags. `?wait=0` answers at once.',
        consumes: ['multipart/form-data'],
        querystring: z.object({ wait: z.string().optional().describe('0: answer at once with 202') }),
        body: ZUpload,
        response: {
          200: envelope(ZUploadData).describe(
            'The analysis finished (completed, or refused by the image check) within the wait',
          ),
          202: envelope(ZUploadData).describe(
            'Accepted; the analysis is still running (poll the chat, or the JSON export)',
          ),
          ...uploadResponses,
          500: ZErrorEnvelope.extend({ data: ZUploadData.optional() }).describe(
            `${ANALYSIS_MESSAGES.failed} (with the ids when the analysis itself failed)`,
          ),
        },
      },
    },
    async (req, reply) => {
      const created = await upload(req);
      const waitMs = req.query.wait === '0' ? 0 : deps.config.ANALYSIS_WAIT_MS;
      const status =
        waitMs > 0
          ? await waitForAnalysis({
              ...deps,
              userId: req.signedIn().userId,
              analysisId: created.analysisId,
              timeoutMs: waitMs,
            })
          : created.status;
      const data = { chat_id: created.chatId, analysis_id: created.analysisId, status };
      if (status === 'failed')
        return reply.status(500).send({ success: false, message: MESSAGES.failed, code: 'ANALYSIS_FAILED', data });
      const done = status === 'completed' || status === 'refused';
      return reply.status(done ? 200 : 202).send({ success: true, message: MESSAGES[status], data });
    },
  );

  app.post(
    '/upload',
    {
      config: analysisConfig,
      schema: {
        tags,
        summary: 'Upload an X-ray; answer at once (202)',
        consumes: ['multipart/form-data'],
        body: ZUpload,
        response: {
          202: envelope(ZUploadData).describe('Accepted; follow the analysis over the chat'),
          ...uploadResponses,
        },
      },
    },
    async (req, reply) => {
      const created = await upload(req);
      return reply.status(202).send({
        success: true,
        message: MESSAGES.queued,
        data: { chat_id: created.chatId, analysis_id: created.analysisId, status: created.status },
      });
    },
  );

  app.post(
    '/chat',
    {
      config: { auth: 'user', failMessage: CHAT_MESSAGES.failed },
      schema: {
        tags,
        summary: 'Ask a follow-up question in a chat',
        body: ZLegacyChatBody,
        response: {
          200: envelope(z.object({ response: z.string(), message_id: z.string() })),
          404: errorResponse(CHAT_MESSAGES.chatNotFound),
          409: errorResponse(CHAT_MESSAGES.notReady),
        },
      },
    },
    async (req) => {
      const { chat_id: chatId, query } = req.body;
      const out = await sendChatMessage({ ...deps, meta: req.meta(), userId: req.signedIn().userId, chatId, query });
      return {
        success: true as const,
        message: 'Message sent',
        data: { response: out.response, message_id: out.replyId },
      };
    },
  );
};

export default routes;
