import { and, count, eq, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { apiKeys } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { API_KEY_MESSAGES, MAX_ACTIVE_API_KEYS, type TCreatedApiKey } from '@contracts/schemas/api-key.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireTeamRole } from '../data-access/team-role.js';
import { apiKeyColumns, apiKeyView } from './api-key-view.js';
import { API_KEY_PREFIX } from './resolve-api-key.js';

/** Shown in listings: 'cxr_' and 8 random characters, too few to guess the rest from. */
const VISIBLE_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

/**
 * Creates a key and returns it once; only its sha256 is stored. With `teamId` it is a team key
 * (issue 32): only a team admin makes one, and STOW-RS with it files into the team for as long as
 * its creator is still a member (stow-routes.ts); other routes treat it as the creator's key.
 */
export async function createApiKey(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  name: string;
  teamId?: string | null;
}): Promise<TCreatedApiKey> {
  const { db, userId } = opts;
  const teamId = opts.teamId ?? null;
  if (teamId) await requireTeamRole({ db, userId, teamId, roles: ['admin'] });
  const [active] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  if ((active?.n ?? 0) >= MAX_ACTIVE_API_KEYS) throw new AppError('CONFLICT', API_KEY_MESSAGES.tooMany);
  const key = newToken(API_KEY_PREFIX);
  const [row] = await db
    .insert(apiKeys)
    .values({ userId, teamId, name: opts.name, prefix: key.slice(0, VISIBLE_PREFIX_LENGTH), keyHash: hashToken(key) })
    .returning(apiKeyColumns);
  if (!row) throw new Error('api key insert returned no row');
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: userId,
      action: 'api_key.create',
      objectType: 'api_key',
      objectId: row.id,
      outcome: 'success',
      details: { teamId },
    },
  });
  return { apiKey: apiKeyView(row), key };
}
