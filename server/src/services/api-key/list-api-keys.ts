import { and, desc, eq, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { apiKeys } from '../../db/schema.js';
import type { TApiKey } from '@contracts/schemas/api-key.js';
import { apiKeyColumns, apiKeyView } from './api-key-view.js';

/** The user's active (not revoked) keys, newest first. */
export async function listApiKeys(opts: { db: TDb; userId: string }): Promise<TApiKey[]> {
  const rows = await opts.db
    .select(apiKeyColumns)
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, opts.userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(apiKeyView);
}
