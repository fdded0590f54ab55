import { z } from 'zod';
import {
  ZAeTitleInput,
  ZChangeRoleInput,
  ZCreateTeamInput,
  ZInvitationInput,
  ZInviteInput,
  ZJoinTeamInput,
  ZMemberInput,
  ZTeam,
  ZTeamAuditInput,
  ZTeamAuditPage,
  ZTeamIdInput,
  ZTeamList,
  ZTeamMembers,
} from '@contracts/schemas/team.js';
import { changeMemberRole } from '../../../services/teams/change-member-role.js';
import { createTeam } from '../../../services/teams/create-team.js';
import { inviteMember } from '../../../services/teams/invite-member.js';
import { joinTeam } from '../../../services/teams/join-team.js';
import { listMembers } from '../../../services/teams/list-members.js';
import { listTeamAudit } from '../../../services/teams/list-team-audit.js';
import { listTeams } from '../../../services/teams/list-teams.js';
import { removeMember } from '../../../services/teams/remove-member.js';
import { revokeInvitation } from '../../../services/teams/revoke-invitation.js';
import { setTeamAeTitle } from '../../../services/teams/set-team-ae-title.js';
import { protectedProcedure, router } from '../../trpc.js';

const ZDone = z.object({ ok: z.literal(true) });

/** Teams, membership and invitations (issue 32); who may do what is decided in the services. */
export const teamRouter = router({
  list: protectedProcedure
    .output(ZTeamList)
    .query(async ({ ctx }) => ({ teams: await listTeams({ ...ctx.deps, userId: ctx.auth.userId }) })),

  create: protectedProcedure
    .input(ZCreateTeamInput)
    .output(ZTeam)
    .mutation(({ ctx, input }) =>
      createTeam({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, name: input.name }),
    ),

  members: protectedProcedure
    .input(ZTeamIdInput)
    .output(ZTeamMembers)
    .query(({ ctx, input }) => listMembers({ ...ctx.deps, userId: ctx.auth.userId, teamId: input.teamId })),

  invite: protectedProcedure
    .input(ZInviteInput)
    .output(z.object({ invitationId: z.uuid() }))
    .mutation(({ ctx, input }) => inviteMember({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),

  /** An admin withdraws a pending invitation. */
  revokeInvitation: protectedProcedure
    .input(ZInvitationInput)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await revokeInvitation({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        teamId: input.teamId,
        invitationId: input.invitationId,
      });
      return { ok: true as const };
    }),

  join: protectedProcedure
    .input(ZJoinTeamInput)
    .output(ZTeam)
    .mutation(({ ctx, input }) =>
      joinTeam({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, email: ctx.auth.email, token: input.token }),
    ),

  changeRole: protectedProcedure
    .input(ZChangeRoleInput)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await changeMemberRole({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        teamId: input.teamId,
        memberId: input.userId,
        role: input.role,
      });
      return { ok: true as const };
    }),

  removeMember: protectedProcedure
    .input(ZMemberInput)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      await removeMember({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        teamId: input.teamId,
        memberId: input.userId,
      });
      return { ok: true as const };
    }),

  leave: protectedProcedure
    .input(ZTeamIdInput)
    .output(ZDone)
    .mutation(async ({ ctx, input }) => {
      const userId = ctx.auth.userId;
      await removeMember({ ...ctx.deps, meta: ctx.meta, userId, teamId: input.teamId, memberId: userId });
      return { ok: true as const };
    }),

  /** The team's audit trail, newest first (admins only). */
  audit: protectedProcedure
    .input(ZTeamAuditInput)
    .output(ZTeamAuditPage)
    .query(({ ctx, input }) => listTeamAudit({ ...ctx.deps, meta: ctx.meta, userId: ctx.auth.userId, input })),

  setAeTitle: protectedProcedure
    .input(ZAeTitleInput)
    .output(z.object({ aeTitle: z.string().nullable() }))
    .mutation(({ ctx, input }) =>
      setTeamAeTitle({
        ...ctx.deps,
        meta: ctx.meta,
        userId: ctx.auth.userId,
        teamId: input.teamId,
        aeTitle: input.aeTitle,
      }),
    ),
});
