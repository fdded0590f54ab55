import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EXPORT_MESSAGES, ZExportReport, type TExportFormat } from '@contracts/schemas/export.js';
import { AppError } from '../lib/app-error.js';
import { isCrossSiteBrowserRead } from '../lib/request-auth.js';
import { exportChat } from '../services/export/export-chat.js';
import { binaryResponse } from './openapi/binary.js';
import { errorResponse } from './openapi/responses.js';

const FILE = /^([0-9A-Za-z-]{1,100})\.(pdf|docx|json|fhir\.json)$/;
const FORMAT_OF: Record<string, TExportFormat> = { pdf: 'pdf', docx: 'docx', json: 'json', 'fhir.json': 'fhir' };

const file200 = binaryResponse('The file (the JSON variant is shown)', [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/fhir+json',
]);

/**
 * GET /api/export/<chatId>.<pdf|docx|json|fhir.json>: the same access rules as the chat (a
 * foreign id answers like a missing one), never cached (errors included), always a download.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:file',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['export'],
        summary: 'Download an analysed chat as PDF, DOCX, JSON or FHIR',
        description:
          '`{file}` is `<chatId>.pdf`, `<chatId>.docx`, `<chatId>.json` (schema chest-doctor-ai/report@7, see docs/export-schema.md) or ' +
          '`<chatId>.fhir.json` (FHIR R4 Bundle with a DiagnosticReport). Sent as an attachment with Cache-Control: private, no-store; audited.',
        params: z.object({ file: z.string().describe('e.g. 3f0c…e1.pdf') }),
        response: {
          200: { ...file200, content: { ...file200.content, 'application/json': { schema: ZExportReport } } },
          403: errorResponse('Refused: a cross-site request'),
          404: errorResponse(
            `${EXPORT_MESSAGES.chatNotFound}; another account's chat answers exactly like a missing one`,
          ),
          409: errorResponse(EXPORT_MESSAGES.noAnalysis),
        },
      },
      // On every answer of this route, the auth hook's 401 and other errors included.
      onSend: async (_req, reply) => {
        reply.header('cache-control', 'private, no-store');
      },
    },
    async (req, reply) => {
      if (await isCrossSiteBrowserRead(req)) {
        throw new AppError('FORBIDDEN', 'Cross-site request refused');
      }
      const m = FILE.exec(req.params.file);
      const format = m ? FORMAT_OF[m[2] ?? ''] : undefined;
      if (!m?.[1] || !format) throw new AppError('NOT_FOUND', EXPORT_MESSAGES.chatNotFound);
      const file = await exportChat({
        ...app.deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        chatId: m[1],
        format,
      });
      return (
        reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('x-content-type-options', 'nosniff')
          // Bytes in every format (Fastify never re-serializes a Buffer); the type provider only
          // knows the JSON variant's schema, which documents what those bytes are.
          .send(file.body as never)
      );
    },
  );
};

export default routes;
