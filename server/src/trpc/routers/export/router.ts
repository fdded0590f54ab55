import { ZExportFile, ZExportInput } from '@contracts/schemas/export.js';
import { exportChat } from '../../../services/export/export-chat.js';
import { protectedProcedure, router } from '../../trpc.js';

/**
 * Exports of an analysed chat. `file` returns the document as base64 (exports are small); the
 * web client's buttons use the REST download URLs instead (GET /api/export/<chatId>.<ext>).
 */
export const exportRouter = router({
  file: protectedProcedure
    .input(ZExportInput)
    .output(ZExportFile)
    .query(async ({ ctx, input }) => {
      const file = await exportChat({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, chatId: input.chatId, format: input.format });
      return { filename: file.filename, contentType: file.contentType, dataBase64: file.body.toString('base64') };
    }),
});
