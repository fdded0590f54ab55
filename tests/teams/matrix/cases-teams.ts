import { randomBytes } from 'node:crypto';
import { teamInvitations } from '../../../server/src/db/schema.js';
import { MANAGE, READ, SIGNED_IN, type TAnswers, type TCase, type TCallCtx } from './matrix-case.js';
import { restStatus, trpcStatus } from './matrix-calls.js';

/** The team itself: creating, listing, membership, invitations, AE title. */

const aeTitle = () => `MX${randomBytes(4).toString('hex').toUpperCase()}`;
/** Team names are unique by slug (issue 39 S1): each call makes its own. */
const teamName = () => `Radiology — Matrix ${randomBytes(4).toString('hex')}`;
const inviteEmail = () => `invitee-${randomBytes(4).toString('hex')}@example.org`;
/** Leaving: the only admin may not (409, the last admin); another team's member is no member (404). */
/** A pending invitation of the team, sent by its admin (written straight to the table: no mail). */
async function pendingInvitation(c: TCallCtx): Promise<string> {
  const [row] = await c.t.deps.db
    .insert(teamInvitations)
    .values({
      teamId: c.w.teamId,
      email: inviteEmail(),
      role: 'clinician',
      tokenHash: randomBytes(32).toString('hex'),
      invitedBy: c.w.users.admin.user.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning({ id: teamInvitations.id });
  if (!row) throw new Error('invitation not made');
  return row.id;
}
const LEAVE: TAnswers = [409, 200, 200, 404, 401];

export const teamCases: TCase[] = [
  {
    surface: 'POST /api/teams',
    expect: SIGNED_IN(201),
    call: (c) => restStatus(c.t, 'POST', '/api/teams', c.token, { name: teamName() }),
  },
  { surface: 'GET /api/teams', expect: SIGNED_IN(200), call: (c) => restStatus(c.t, 'GET', '/api/teams', c.token) },
  {
    surface: 'POST /api/teams/join',
    variant: 'a token nobody was sent',
    expect: SIGNED_IN(400),
    call: (c) => restStatus(c.t, 'POST', '/api/teams/join', c.token, { token: 'not-a-real-invitation-token' }),
  },
  {
    surface: 'POST /api/teams/{teamId}/invitations',
    expect: [201, 403, 403, 404, 401],
    call: (c) =>
      restStatus(c.t, 'POST', `/api/teams/${c.w.teamId}/invitations`, c.token, {
        email: inviteEmail(),
        role: 'clinician',
      }),
  },
  {
    surface: 'DELETE /api/teams/{teamId}/invitations/{invitationId}',
    variant: 'a pending invitation',
    expect: MANAGE,
    call: async (c) =>
      restStatus(c.t, 'DELETE', `/api/teams/${c.w.teamId}/invitations/${await pendingInvitation(c)}`, c.token),
  },
  {
    surface: 'GET /api/teams/{teamId}/members',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/teams/${c.w.teamId}/members`, c.token),
  },
  {
    surface: 'GET /api/teams/{teamId}/audit',
    expect: MANAGE,
    call: (c) => restStatus(c.t, 'GET', `/api/teams/${c.w.teamId}/audit?limit=5`, c.token),
  },
  {
    surface: 'PATCH /api/teams/{teamId}/members/{userId}',
    variant: "a colleague's role",
    expect: MANAGE,
    call: (c) =>
      restStatus(c.t, 'PATCH', `/api/teams/${c.w.teamId}/members/${c.w.users.author.user.id}`, c.token, {
        role: 'clinician',
      }),
  },
  {
    surface: 'DELETE /api/teams/{teamId}/members/{userId}',
    variant: 'a colleague',
    expect: MANAGE,
    call: (c) => restStatus(c.t, 'DELETE', `/api/teams/${c.w.teamId}/members/${c.w.users.author.user.id}`, c.token),
  },
  {
    surface: 'DELETE /api/teams/{teamId}/members/{userId}',
    variant: 'the caller (leave)',
    expect: LEAVE,
    call: (c) => restStatus(c.t, 'DELETE', `/api/teams/${c.w.teamId}/members/${c.self}`, c.token),
  },
  { surface: 'query team.list', expect: SIGNED_IN(200), call: (c) => trpcStatus(c.t, 'query', 'team.list', c.token) },
  {
    surface: 'mutation team.create',
    expect: SIGNED_IN(200),
    call: (c) => trpcStatus(c.t, 'mutation', 'team.create', c.token, { name: teamName() }),
  },
  {
    surface: 'query team.members',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'team.members', c.token, { teamId: c.w.teamId }),
  },
  {
    surface: 'mutation team.invite',
    expect: MANAGE,
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'team.invite', c.token, { teamId: c.w.teamId, email: inviteEmail(), role: 'admin' }),
  },
  {
    surface: 'mutation team.revokeInvitation',
    variant: 'a pending invitation',
    expect: MANAGE,
    call: async (c) =>
      trpcStatus(c.t, 'mutation', 'team.revokeInvitation', c.token, {
        teamId: c.w.teamId,
        invitationId: await pendingInvitation(c),
      }),
  },
  {
    surface: 'mutation team.join',
    variant: 'a token nobody was sent',
    expect: SIGNED_IN(400),
    call: (c) => trpcStatus(c.t, 'mutation', 'team.join', c.token, { token: 'not-a-real-invitation-token' }),
  },
  {
    surface: 'mutation team.changeRole',
    variant: "a colleague's role",
    expect: MANAGE,
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'team.changeRole', c.token, {
        teamId: c.w.teamId,
        userId: c.w.users.author.user.id,
        role: 'admin',
      }),
  },
  {
    surface: 'mutation team.removeMember',
    variant: 'a colleague',
    expect: MANAGE,
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'team.removeMember', c.token, {
        teamId: c.w.teamId,
        userId: c.w.users.author.user.id,
      }),
  },
  {
    surface: 'mutation team.leave',
    expect: LEAVE,
    call: (c) => trpcStatus(c.t, 'mutation', 'team.leave', c.token, { teamId: c.w.teamId }),
  },
  {
    surface: 'query team.audit',
    expect: MANAGE,
    call: (c) => trpcStatus(c.t, 'query', 'team.audit', c.token, { teamId: c.w.teamId }),
  },
  {
    surface: 'mutation team.setAeTitle',
    expect: MANAGE,
    call: (c) => trpcStatus(c.t, 'mutation', 'team.setAeTitle', c.token, { teamId: c.w.teamId, aeTitle: aeTitle() }),
  },
];
