import { ZExportFile, ZExportInput } from '@contracts/schemas/export.js';
import { AppError } from '../../../lib/app-error.js';
import { isCrossSiteBrowserRead } from '../../../lib/request-auth.js';
import { exportChat } from '../../../services/export/export-chat.js';
import { protectedProcedure, router } from '../../trpc.js';

/**
 * Exports of an analysed chat. `file` returns the document as base64 (exports are small); the
 * web client's buttons use the REST download URLs instead (GET /api/export/<chatId>.<ext>).
 * Like that route, it refuses a cross-site browser request (a query is a GET, which the CSRF
 * check lets through).
 */
export const exportRouter = router({
  file: protectedProcedure
    .input(ZExportInput)
    .output(ZExportFile)
    .query(async ({ ctx, input }) => {
      if (ctx.reply && (await isCrossSiteBrowserRead(ctx.reply.request)))
        throw new AppError('FORBIDDEN', 'Cross-site request refused');
      const file = await exportChat({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        chatId: input.chatId,
        format: input.format,
      });
      return { filename: file.filename, contentType: file.contentType, dataBase64: file.body.toString('base64') };
    }),
});
