import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { ZLegacyProfilePayload } from '@contracts/schemas/profile.js';
import type { TAuth } from '../services/auth/resolve-session.js';
import { createProfile } from '../services/profile/create-profile.js';
import { deleteProfile } from '../services/profile/delete-profile.js';
import { PROFILE_NOT_FOUND } from '../services/profile/get-owned-profile.js';
import { listProfiles } from '../services/profile/list-profiles.js';
import { toLegacyProfile } from '../services/profile/profile-view.js';
import { updateProfile } from '../services/profile/update-profile.js';
import { parseWith, sendError } from './reply.js';

/**
 * GET /profile/{userId} has no paging in the spec: it answers the newest PROFILE_LIST_CAP
 * profiles (tRPC profile.list pages through all of them).
 */
export const PROFILE_LIST_CAP = 1000;
const USER_NOT_FOUND = 'User not found';

// `user_id` is only checked against the session: ownership never comes from a body.
const ZCreateBody = z.object({ user_id: z.string().max(100).optional(), profile: ZLegacyProfilePayload });
const ZUpdateBody = z.object({ profile: ZLegacyProfilePayload });

async function signedIn(req: FastifyRequest): Promise<TAuth> {
  const auth = await req.resolveAuth();
  if (!auth) throw new AppError('UNAUTHORIZED', 'Authentication required');
  return auth;
}

/** Another user's id in a path answers exactly like an id nobody has. */
function requireSelf(auth: TAuth, userId: string | undefined, message: string): void {
  if (userId !== undefined && userId !== auth.userId) throw new AppError('NOT_FOUND', message);
}

type TUserParams = { Params: { userId: string } };
type TProfileParams = { Params: { userId: string; profileId: string } };

const routes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;

  app.post('/create', async (req, reply) => {
    try {
      const auth = await signedIn(req);
      const raw = (req.body ?? {}) as { user_id?: unknown };
      requireSelf(auth, raw.user_id === undefined ? undefined : String(raw.user_id), USER_NOT_FOUND);
      const body = parseWith(ZCreateBody, req.body);
      const row = await createProfile({ db, meta: req.meta(), userId: auth.userId, values: body.profile });
      return reply.status(201).send({
        success: true,
        message: 'Profile created successfully',
        data: { profile_id: row.id, created_at: row.createdAt.toISOString() },
      });
    } catch (err) {
      return sendError(reply, err);
    }
  });

  app.get<TUserParams>('/:userId', async (req, reply) => {
    try {
      const auth = await signedIn(req);
      requireSelf(auth, req.params.userId, USER_NOT_FOUND);
      const page = await listProfiles({ db, meta: req.meta(), userId: auth.userId, limit: PROFILE_LIST_CAP });
      return reply.send({ success: true, data: { profiles: page.rows.map(toLegacyProfile) } });
    } catch (err) {
      return sendError(reply, err);
    }
  });

  app.put<TProfileParams>('/:userId/:profileId', async (req, reply) => {
    try {
      const auth = await signedIn(req);
      requireSelf(auth, req.params.userId, PROFILE_NOT_FOUND);
      const body = parseWith(ZUpdateBody, req.body);
      const row = await updateProfile({ db, meta: req.meta(), userId: auth.userId, profileId: req.params.profileId, values: body.profile });
      return reply.send({
        success: true,
        message: 'Profile updated successfully',
        data: { profile_id: row.id, updated_at: row.updatedAt.toISOString() },
      });
    } catch (err) {
      return sendError(reply, err);
    }
  });

  app.delete<TProfileParams>('/:userId/:profileId', async (req, reply) => {
    try {
      const auth = await signedIn(req);
      requireSelf(auth, req.params.userId, PROFILE_NOT_FOUND);
      await deleteProfile({ db, meta: req.meta(), userId: auth.userId, profileId: req.params.profileId });
      return reply.send({ success: true, message: 'Profile deleted successfully' });
    } catch (err) {
      return sendError(reply, err);
    }
  });
};

export default routes;
