import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZLegacyProfilePayload } from '@contracts/schemas/profile.js';
import { AppError } from '../lib/app-error.js';
import type { TAuth } from '../services/auth/resolve-session.js';
import { createProfile } from '../services/profile/create-profile.js';
import { deleteProfile } from '../services/profile/delete-profile.js';
import { PROFILE_NOT_FOUND } from '../services/profile/get-owned-profile.js';
import { listProfiles } from '../services/profile/list-profiles.js';
import { toLegacyProfile } from '../services/profile/profile-view.js';
import { updateProfile } from '../services/profile/update-profile.js';
import { envelope, errorResponse, ZOk } from './openapi/responses.js';
import { ZSpaceInput, ZTeamId } from '@contracts/schemas/team.js';

/**
 * GET /profile/{userId} has no paging in the spec: it answers the newest PROFILE_LIST_CAP
 * profiles (tRPC profile.list pages through all of them).
 */
export const PROFILE_LIST_CAP = 1000;
const USER_NOT_FOUND = 'User not found';

const tags = ['profiles'];
const config = { auth: 'user' } as const;
// `user_id` is only checked against the session: ownership never comes from a body. The update
// takes no `user_id` (the path names the user), so none is accepted there.
const ZCreateBody = z.object({
  user_id: z.string().max(100).optional(),
  profile: ZLegacyProfilePayload,
  team_id: ZTeamId.nullish().describe('The team the profile belongs to; absent: your personal space'),
});
const ZUpdateBody = z.object({ profile: ZLegacyProfilePayload });
const ZUserParams = z.object({ userId: z.string().describe('Your own user id') });
const ZProfileParams = ZUserParams.extend({ profileId: z.string().describe('Profile id') });
const ZLegacyProfile = z.object({
  profile_id: z.uuid(),
  created_at: z.string(),
  profile: z.record(z.string(), z.unknown()),
});
const notFound = (message: string) => ({
  404: errorResponse(`${message}; another account's id answers exactly like a missing one`),
});

/** Another user's id in a path or body answers exactly like an id nobody has. */
function requireSelf(auth: TAuth, userId: string | undefined, message: string): void {
  if (userId !== undefined && userId !== auth.userId) throw new AppError('NOT_FOUND', message);
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.post(
    '/create',
    {
      config,
      schema: {
        tags,
        summary: 'Create a patient profile',
        body: ZCreateBody,
        response: {
          201: envelope(z.object({ profile_id: z.uuid(), created_at: z.string() })),
          ...notFound(USER_NOT_FOUND),
        },
      },
    },
    async (req, reply) => {
      const auth = req.signedIn();
      requireSelf(auth, req.body.user_id, USER_NOT_FOUND);
      const row = await createProfile({
        db,
        meta: req.meta(),
        userId: auth.userId,
        teamId: req.body.team_id,
        values: req.body.profile,
      });
      return reply.status(201).send({
        success: true,
        message: 'Profile created successfully',
        data: { profile_id: row.id, created_at: row.createdAt.toISOString() },
      });
    },
  );

  app.get(
    '/:userId',
    {
      config,
      schema: {
        tags,
        summary: "List the user's patient profiles",
        params: ZUserParams,
        querystring: ZSpaceInput,
        response: { 200: envelope(z.object({ profiles: z.array(ZLegacyProfile) })), ...notFound(USER_NOT_FOUND) },
      },
    },
    async (req) => {
      const auth = req.signedIn();
      requireSelf(auth, req.params.userId, USER_NOT_FOUND);
      const page = await listProfiles({
        db,
        meta: req.meta(),
        userId: auth.userId,
        teamId: req.query.team,
        limit: PROFILE_LIST_CAP,
      });
      return { success: true as const, data: { profiles: page.rows.map(toLegacyProfile) } };
    },
  );

  app.put(
    '/:userId/:profileId',
    {
      config,
      schema: {
        tags,
        summary: 'Update a patient profile',
        params: ZProfileParams,
        body: ZUpdateBody,
        response: {
          200: envelope(z.object({ profile_id: z.uuid(), updated_at: z.string() })),
          ...notFound(PROFILE_NOT_FOUND),
        },
      },
    },
    async (req) => {
      const auth = req.signedIn();
      requireSelf(auth, req.params.userId, PROFILE_NOT_FOUND);
      const row = await updateProfile({
        db,
        meta: req.meta(),
        userId: auth.userId,
        profileId: req.params.profileId,
        values: req.body.profile,
      });
      return {
        success: true as const,
        message: 'Profile updated successfully',
        data: { profile_id: row.id, updated_at: row.updatedAt.toISOString() },
      };
    },
  );

  app.delete(
    '/:userId/:profileId',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a patient profile',
        params: ZProfileParams,
        response: { 200: ZOk, ...notFound(PROFILE_NOT_FOUND) },
      },
    },
    async (req) => {
      const auth = req.signedIn();
      requireSelf(auth, req.params.userId, PROFILE_NOT_FOUND);
      await deleteProfile({ db, meta: req.meta(), userId: auth.userId, profileId: req.params.profileId });
      return { success: true as const, message: 'Profile deleted successfully' };
    },
  );
};

export default routes;
