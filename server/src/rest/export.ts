import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { EXPORT_MESSAGES, type TExportFormat } from '@contracts/schemas/export.js';
import { exportChat } from '../services/export/export-chat.js';
import { sendError } from './reply.js';

const FILE = /^([0-9A-Za-z-]{1,100})\.(pdf|docx|json|fhir\.json)$/;
const FORMAT_OF: Record<string, TExportFormat> = { pdf: 'pdf', docx: 'docx', json: 'json', 'fhir.json': 'fhir' };

/**
 * GET /api/export/<chatId>.<pdf|docx|json|fhir.json>: the same access rules as the chat (a
 * foreign id answers like a missing one), never cached, always a download.
 */
const routes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { file: string } }>('/:file', async (req, reply) => {
    try {
      // A download is a GET, so the CSRF hook lets it through; but another site has no business
      // making a signed-in browser fetch (and audit) patient reports, even if it cannot read them.
      if (req.headers['sec-fetch-site'] === 'cross-site' && !req.headers.authorization) {
        throw new AppError('FORBIDDEN', 'Cross-site request refused');
      }
      const auth = await req.resolveAuth();
      if (!auth) throw new AppError('UNAUTHORIZED', 'Authentication required');
      const m = FILE.exec(req.params.file);
      const format = m ? FORMAT_OF[m[2] ?? ''] : undefined;
      if (!m?.[1] || !format) throw new AppError('NOT_FOUND', EXPORT_MESSAGES.chatNotFound);
      const file = await exportChat(app.deps, req.meta(), auth.userId, m[1], format);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    } catch (err) {
      reply.header('cache-control', 'private, no-store');
      return sendError(reply, err);
    }
  });
};

export default routes;
