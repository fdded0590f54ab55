import {
  ZProfile,
  ZProfileDeleteOutput,
  ZProfileIdInput,
  ZProfileCreateInput,
  ZProfileListInput,
  ZProfileListOutput,
  ZProfileUpdateInput,
} from '@contracts/schemas/profile.js';
import { ZTimeline, ZTimelineInput } from '@contracts/schemas/timeline.js';
import { createProfile } from '../../../services/profile/create-profile.js';
import { deleteProfile } from '../../../services/profile/delete-profile.js';
import { getProfile } from '../../../services/profile/get-profile.js';
import { listProfiles } from '../../../services/profile/list-profiles.js';
import { toProfileView } from '../../../services/profile/profile-view.js';
import { updateProfile } from '../../../services/profile/update-profile.js';
import { loadTimeline } from '../../../services/timeline/load-timeline.js';
import { protectedProcedure, router } from '../../trpc.js';

/** Patient profiles of the signed-in user; every call is scoped by ctx.auth, never by input. */
export const profileRouter = router({
  list: protectedProcedure
    .input(ZProfileListInput)
    .output(ZProfileListOutput)
    .query(async ({ ctx, input }) => {
      const page = await listProfiles({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        teamId: input.team,
        cursor: input.cursor,
        limit: input.limit,
      });
      return { items: page.rows.map(toProfileView), nextCursor: page.nextCursor };
    }),

  get: protectedProcedure
    .input(ZProfileIdInput)
    .output(ZProfile)
    .query(async ({ ctx, input }) =>
      toProfileView(
        await getProfile({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, profileId: input.profileId }),
      ),
    ),

  /** The patient's completed analyses, oldest first (issue 18). */
  timeline: protectedProcedure
    .input(ZTimelineInput)
    .output(ZTimeline)
    .query(({ ctx, input }) =>
      loadTimeline({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, profileId: input.profileId }),
    ),

  create: protectedProcedure
    .input(ZProfileCreateInput)
    .output(ZProfile)
    .mutation(async ({ ctx, input }) =>
      toProfileView(
        await createProfile({
          ...ctx.deps,
          meta: ctx.meta,
          userId: ctx.auth.userId,
          teamId: input.team,
          values: input,
        }),
      ),
    ),

  update: protectedProcedure
    .input(ZProfileUpdateInput)
    .output(ZProfile)
    .mutation(async ({ ctx, input }) =>
      toProfileView(
        await updateProfile({
          ...ctx.deps,
          meta: ctx.meta,
          userId: ctx.auth.userId,
          profileId: input.profileId,
          values: input.profile,
        }),
      ),
    ),

  delete: protectedProcedure
    .input(ZProfileIdInput)
    .output(ZProfileDeleteOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteProfile({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, profileId: input.profileId });
      return { profileId: input.profileId };
    }),
});
