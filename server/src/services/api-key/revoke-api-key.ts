import { and, eq, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { apiKeys } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { API_KEY_MESSAGES } from '@contracts/schemas/api-key.js';
import { recordAudit } from '../audit/record-audit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Revokes one of the user's keys; it stops working on the next request. Missing, foreign and
 * already revoked ids all answer NOT_FOUND (and are audited as failures), so nobody learns
 * another account's key ids.
 */
export async function revokeApiKey(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  id: string;
}): Promise<{ id: string }> {
  const { db, userId, id } = opts;
  const [row] = UUID.test(id)
    ? await db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id })
    : [];
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: userId,
      action: 'api_key.revoke',
      objectType: 'api_key',
      objectId: UUID.test(id) ? id : null,
      outcome: row ? 'success' : 'failure',
      details: row ? null : { code: 'NOT_FOUND' },
    },
  });
  if (!row) throw new AppError('NOT_FOUND', API_KEY_MESSAGES.notFound);
  return row;
}
