import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZTimelineEntry } from '@contracts/schemas/timeline.js';
import { AppError } from '../lib/app-error.js';
import { PROFILE_NOT_FOUND } from '../services/profile/get-owned-profile.js';
import { loadTimeline } from '../services/timeline/load-timeline.js';
import { envelope, errorResponse } from './openapi/responses.js';

const ZParams = z.object({
  userId: z.string().describe('Your own user id'),
  profileId: z.string().describe('Profile id'),
});

/**
 * GET /profile/{userId}/{profileId}/timeline (issue 18): the patient's completed analyses,
 * oldest first. Another account's user or profile id answers exactly like a missing profile.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.get(
    '/:userId/:profileId/timeline',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['profiles'],
        summary: "A patient's timeline: every completed analysis of the profile, oldest first",
        params: ZParams,
        response: {
          200: envelope(z.object({ analyses: z.array(ZTimelineEntry) })),
          404: errorResponse(`${PROFILE_NOT_FOUND}; another account's id answers exactly like a missing one`),
        },
      },
    },
    async (req) => {
      const auth = req.signedIn();
      if (req.params.userId !== auth.userId) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
      const timeline = await loadTimeline({
        db,
        meta: req.meta(),
        userId: auth.userId,
        profileId: req.params.profileId,
      });
      return { success: true as const, data: { analyses: timeline.analyses } };
    },
  );
};

export default routes;
