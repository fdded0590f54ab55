import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  TEAM_MESSAGES,
  ZCreateTeamInput,
  ZInviteInput,
  ZJoinTeamInput,
  ZTeam,
  ZTeamAuditInput,
  ZTeamAuditPage,
  ZTeamList,
  ZTeamMembers,
  ZTeamRole,
} from '@contracts/schemas/team.js';
import { changeMemberRole } from '../services/teams/change-member-role.js';
import { createTeam } from '../services/teams/create-team.js';
import { inviteMember } from '../services/teams/invite-member.js';
import { joinTeam } from '../services/teams/join-team.js';
import { listMembers } from '../services/teams/list-members.js';
import { listTeamAudit } from '../services/teams/list-team-audit.js';
import { listTeams } from '../services/teams/list-teams.js';
import { removeMember } from '../services/teams/remove-member.js';
import { revokeInvitation } from '../services/teams/revoke-invitation.js';
import { envelope, errorResponse, ZOk } from './openapi/responses.js';

const tags = ['teams'];
const config = { auth: 'user' } as const;
const ZTeamParams = z.object({ teamId: z.string().max(100) });
const ZMemberParams = ZTeamParams.extend({ userId: z.string().max(100) });
const ZInvitationParams = ZTeamParams.extend({ invitationId: z.string().max(100) });
const notFound = { 404: errorResponse(TEAM_MESSAGES.notFound) };

/** /api/teams: the same services as the tRPC `team` procedures, in the spec's envelope. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;

  app.post(
    '',
    {
      config,
      schema: {
        tags,
        summary: 'Create a team (you become its admin)',
        body: ZCreateTeamInput,
        response: { 201: envelope(z.object({ team: ZTeam })) },
      },
    },
    async (req, reply) => {
      const team = await createTeam({ ...deps, meta: req.meta(), userId: req.signedIn().userId, name: req.body.name });
      return reply.status(201).send({ success: true, data: { team } });
    },
  );

  app.get(
    '',
    {
      config,
      schema: { tags, summary: 'The teams you belong to, with your role', response: { 200: envelope(ZTeamList) } },
    },
    async (req) => ({
      success: true as const,
      data: { teams: await listTeams({ ...deps, userId: req.signedIn().userId }) },
    }),
  );

  app.post(
    '/join',
    {
      config,
      schema: {
        tags,
        summary: 'Accept an invitation (the signed-in account must have the invited address)',
        body: ZJoinTeamInput,
        response: { 200: envelope(z.object({ team: ZTeam })) },
      },
    },
    async (req) => {
      const { userId, email } = req.signedIn();
      const team = await joinTeam({ ...deps, meta: req.meta(), userId, email, token: req.body.token });
      return { success: true as const, message: TEAM_MESSAGES.joined, data: { team } };
    },
  );

  app.post(
    '/:teamId/invitations',
    {
      config,
      schema: {
        tags,
        summary: 'Invite an address with a role (admins); the e-mailed link is valid once, for 7 days',
        params: ZTeamParams,
        body: ZInviteInput.omit({ teamId: true }),
        response: {
          201: envelope(z.object({ invitationId: z.uuid() })),
          ...notFound,
          409: errorResponse(TEAM_MESSAGES.alreadyMember),
          429: errorResponse(TEAM_MESSAGES.tooManyInvitesToAddress),
        },
      },
    },
    async (req, reply) => {
      const input = { teamId: req.params.teamId, email: req.body.email, role: req.body.role };
      const data = await inviteMember({ ...deps, meta: req.meta(), userId: req.signedIn().userId, input });
      return reply.status(201).send({ success: true, message: TEAM_MESSAGES.invited, data });
    },
  );

  app.delete(
    '/:teamId/invitations/:invitationId',
    {
      config,
      schema: {
        tags,
        summary: 'Withdraw a pending invitation (admins); its link stops working at once',
        params: ZInvitationParams,
        response: {
          200: ZOk,
          403: errorResponse(TEAM_MESSAGES.adminOnly),
          404: errorResponse(TEAM_MESSAGES.invitationNotFound),
        },
      },
    },
    async (req) => {
      const { teamId, invitationId } = req.params;
      await revokeInvitation({ ...deps, meta: req.meta(), userId: req.signedIn().userId, teamId, invitationId });
      return { success: true as const, message: TEAM_MESSAGES.invitationRevoked };
    },
  );

  app.get(
    '/:teamId/members',
    {
      config,
      schema: {
        tags,
        summary: "A team's members (and, for admins, pending invitations)",
        params: ZTeamParams,
        response: { 200: envelope(ZTeamMembers), ...notFound },
      },
    },
    async (req) => ({
      success: true as const,
      data: await listMembers({ ...deps, userId: req.signedIn().userId, teamId: req.params.teamId }),
    }),
  );

  app.get(
    '/:teamId/audit',
    {
      config,
      schema: {
        tags,
        summary: "The team's audit trail, newest first (admins only)",
        description:
          'Every entry about the team: who viewed, exported, reviewed, changed or managed what, with the object named where the caller may see it. ' +
          'Paged by entry id: pass `next_cursor` as `cursor` for the next page.',
        params: ZTeamParams,
        querystring: ZTeamAuditInput.pick({ cursor: true, limit: true }),
        response: {
          200: envelope(z.object({ entries: ZTeamAuditPage.shape.entries, next_cursor: z.string().nullable() })),
          403: errorResponse(TEAM_MESSAGES.adminOnly),
          ...notFound,
        },
      },
    },
    async (req) => {
      const { cursor, limit } = req.query;
      const page = await listTeamAudit({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        input: { teamId: req.params.teamId, cursor, limit },
      });
      return { success: true as const, data: { entries: page.entries, next_cursor: page.nextCursor } };
    },
  );

  app.patch(
    '/:teamId/members/:userId',
    {
      config,
      schema: {
        tags,
        summary: "Change a member's role (admins; the last admin cannot be demoted)",
        params: ZMemberParams,
        body: z.object({ role: ZTeamRole }),
        response: { 200: ZOk, ...notFound, 409: errorResponse(TEAM_MESSAGES.lastAdmin) },
      },
    },
    async (req) => {
      const { teamId, userId: memberId } = req.params;
      await changeMemberRole({
        ...deps,
        meta: req.meta(),
        userId: req.signedIn().userId,
        teamId,
        memberId,
        role: req.body.role,
      });
      return { success: true as const, message: TEAM_MESSAGES.roleChanged };
    },
  );

  app.delete(
    '/:teamId/members/:userId',
    {
      config,
      schema: {
        tags,
        summary: 'Remove a member (admins), or leave (your own id); the last admin can do neither',
        params: ZMemberParams,
        response: { 200: ZOk, ...notFound, 409: errorResponse(TEAM_MESSAGES.lastAdmin) },
      },
    },
    async (req) => {
      const { teamId, userId: memberId } = req.params;
      const userId = req.signedIn().userId;
      await removeMember({ ...deps, meta: req.meta(), userId, teamId, memberId });
      return { success: true as const, message: memberId === userId ? TEAM_MESSAGES.left : TEAM_MESSAGES.removed };
    },
  );
};

export default routes;
