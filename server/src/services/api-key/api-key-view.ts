import { apiKeys } from '../../db/schema.js';
import type { TApiKey } from '@contracts/schemas/api-key.js';

/** The columns a listing may read: never key_hash. */
export const apiKeyColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  teamId: apiKeys.teamId,
};

export function apiKeyView(row: {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  teamId: string | null;
}): TApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    teamId: row.teamId,
  };
}
