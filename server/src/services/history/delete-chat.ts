import { eq, inArray } from 'drizzle-orm';
import { analyses, chats, reports } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { HISTORY_MESSAGES } from '@contracts/schemas/history.js';
import { deleteUnreferencedImages, imageIdsOfChats } from '../images/delete-unreferenced-images.js';
import { auditedAccess } from '../audit/audited-access.js';
import { ownedRow } from '../data-access/find-owned.js';

/**
 * Deletes one of userId's chats: its messages and analyses go with it (foreign keys cascade),
 * then its images, rows and files, unless something else still references them. A chat whose
 * report is signed (final or amended) is refused, CONFLICT, whoever asks (issue 46 H4): the
 * cascade would take the signed report, which is part of the medical record, with it.
 */
export async function deleteChat(
  opts: Pick<AppDeps, 'db' | 'images' | 'log'> & { meta: RequestMeta | null; userId: string; chatId: string },
): Promise<void> {
  const { db, images, log, userId, chatId } = opts;
  await auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'history.delete',
    objectType: 'chat',
    objectId: chatId,
    work: async () => {
      const owner = ownedRow(chats, chatId, userId, HISTORY_MESSAGES.chatNotFound);
      const { imageIds, teamId } = await db.transaction(async (tx) => {
        const [owned] = await tx.select({ id: chats.id, teamId: chats.teamId }).from(chats).where(owner).for('update');
        if (!owned) throw new AppError('NOT_FOUND', HISTORY_MESSAGES.chatNotFound);
        // The chat's reports locked: a signature in flight is waited for and seen here, and one
        // that comes later waits for this delete and finds no report to sign.
        const held = await tx
          .select({ status: reports.status })
          .from(reports)
          .where(
            inArray(
              reports.analysisId,
              tx.select({ id: analyses.id }).from(analyses).where(eq(analyses.chatId, chatId)),
            ),
          )
          .for('update');
        const signed = held.some((r) => r.status !== 'draft');
        if (signed) throw new AppError('CONFLICT', HISTORY_MESSAGES.signedReport);
        const ids = await imageIdsOfChats({ db: tx as unknown as typeof db, chatIds: [chatId] });
        await tx.delete(chats).where(eq(chats.id, chatId));
        return { imageIds: ids, teamId: owned.teamId };
      });
      return { teamId, images: await deleteUnreferencedImages({ db, images, log, imageIds }) };
    },
    // The chat is gone when the entry is written: its team is named here (services/audit/audit-team.ts).
    detailsOf: (out) => ({ images: out.images, teamId: out.teamId }),
  });
}
