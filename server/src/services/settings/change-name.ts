import { eq } from 'drizzle-orm';
import { AUTH_MESSAGES } from '@contracts/schemas/auth.js';
import { users } from '../../db/schema.js';
import type { TDb } from '../../db/client.js';
import type { AppDeps, RequestMeta } from '../../deps.js';

import { AppError } from '../../lib/app-error.js';
import type { TAuthUser } from '@contracts/schemas/auth.js';
import type { TChangeNameInput } from '@contracts/schemas/settings.js';
import { recordAudit } from '../audit/record-audit.js';
import { announceSessionsEnded } from '../auth/session-cache.js';

export async function changeName(
  opts: Pick<AppDeps, 'redis' | 'config'> & { db: TDb; meta: RequestMeta; userId: string; input: TChangeNameInput },
): Promise<TAuthUser> {
  const { db, meta, userId, input } = opts;
  const [user] = await db
    .update(users)
    .set({ name: input.name, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ id: users.id, name: users.name, email: users.email });
  if (!user) throw new AppError('UNAUTHORIZED', AUTH_MESSAGES.authRequired);
  // The new name is personal data: the audit entry records that it changed, not what to.
  await recordAudit({
    db,
    meta,
    entry: {
      actorUserId: userId,
      action: 'settings.change_name',
      objectType: 'user',
      objectId: userId,
      outcome: 'success',
    },
  });
  // Cached sessions carry the user's name: every server process drops this user's entries so the
  // next request reads the new name (the sessions themselves stay valid).
  await announceSessionsEnded({ redis: opts.redis, config: opts.config, userId });
  return user;
}
