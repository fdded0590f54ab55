import { READ, WRITE_COLLEAGUES, type TAnswers, type TCase } from './matrix-case.js';
import { restStatus, trpcStatus } from './matrix-calls.js';

/** Profiles, chats (history), timelines and team-scoped lists: the team's patient data. */

const PROFILE = { full_name: 'Matrix Patient', age: '50', Allergies: 'none' };
const TRPC_PROFILE = { patientName: 'Changed Name', age: 51 };
/** A clinician changing a row they made themselves: every member may. */
const WRITE_OWN: TAnswers = READ;
const CREATE = (status: number): TAnswers => [status, status, status, 404, 401];

export const patientDataCases: TCase[] = [
  {
    surface: 'POST /api/profile/create',
    variant: 'in the team (team_id)',
    expect: CREATE(201),
    call: (c) => restStatus(c.t, 'POST', '/api/profile/create', c.token, { profile: PROFILE, team_id: c.w.teamId }),
  },
  {
    surface: 'GET /api/profile/{userId}',
    variant: '?team=',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/profile/${c.self}?team=${c.w.teamId}`, c.token),
  },
  {
    surface: 'PUT /api/profile/{userId}/{profileId}',
    variant: "a colleague's profile",
    expect: WRITE_COLLEAGUES,
    call: (c) => restStatus(c.t, 'PUT', `/api/profile/${c.self}/${c.rows.profileId}`, c.token, { profile: PROFILE }),
  },
  {
    surface: 'PUT /api/profile/{userId}/{profileId}',
    variant: 'a profile the caller made',
    expect: WRITE_OWN,
    call: async (c) =>
      restStatus(c.t, 'PUT', `/api/profile/${c.self}/${(await c.own()).profileId}`, c.token, { profile: PROFILE }),
  },
  {
    surface: 'DELETE /api/profile/{userId}/{profileId}',
    variant: "a colleague's profile",
    expect: WRITE_COLLEAGUES,
    call: (c) => restStatus(c.t, 'DELETE', `/api/profile/${c.self}/${c.rows.profileId}`, c.token),
  },
  {
    surface: 'DELETE /api/profile/{userId}/{profileId}',
    variant: 'a profile the caller made',
    expect: WRITE_OWN,
    call: async (c) => restStatus(c.t, 'DELETE', `/api/profile/${c.self}/${(await c.own()).profileId}`, c.token),
  },
  {
    surface: 'GET /api/profile/{userId}/{profileId}/timeline',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/profile/${c.self}/${c.rows.profileId}/timeline`, c.token),
  },
  {
    surface: 'GET /api/history/get-init-info',
    variant: '?team=',
    expect: READ,
    call: (c) => restStatus(c.t, 'GET', `/api/history/get-init-info?team=${c.w.teamId}`, c.token),
  },
  {
    surface: 'PUT /api/history/edit-title',
    variant: "a colleague's chat",
    expect: WRITE_COLLEAGUES,
    call: (c) =>
      restStatus(c.t, 'PUT', '/api/history/edit-title', c.token, { chat_id: c.rows.chatId, title: 'Renamed' }),
  },
  {
    surface: 'PUT /api/history/edit-title',
    variant: 'a chat the caller made',
    expect: WRITE_OWN,
    call: async (c) =>
      restStatus(c.t, 'PUT', '/api/history/edit-title', c.token, { chat_id: (await c.own()).chatId, title: 'Mine' }),
  },
  {
    surface: 'DELETE /api/history/delete',
    variant: "a colleague's chat",
    expect: WRITE_COLLEAGUES,
    call: (c) => restStatus(c.t, 'DELETE', '/api/history/delete', c.token, { chat_id: c.rows.chatId }),
  },
  {
    surface: 'DELETE /api/history/delete',
    variant: 'a chat the caller made',
    expect: WRITE_OWN,
    call: async (c) => restStatus(c.t, 'DELETE', '/api/history/delete', c.token, { chat_id: (await c.own()).chatId }),
  },
  {
    surface: 'query profile.list',
    variant: '{team}',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'profile.list', c.token, { team: c.w.teamId }),
  },
  {
    surface: 'query profile.get',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'profile.get', c.token, { profileId: c.rows.profileId }),
  },
  {
    surface: 'query profile.timeline',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'profile.timeline', c.token, { profileId: c.rows.profileId }),
  },
  {
    surface: 'mutation profile.create',
    variant: '{team}',
    expect: CREATE(200),
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'profile.create', c.token, { patientName: 'New Patient', age: 40, team: c.w.teamId }),
  },
  {
    surface: 'mutation profile.update',
    variant: "a colleague's profile",
    expect: WRITE_COLLEAGUES,
    call: (c) =>
      trpcStatus(c.t, 'mutation', 'profile.update', c.token, { profileId: c.rows.profileId, profile: TRPC_PROFILE }),
  },
  {
    surface: 'mutation profile.update',
    variant: 'a profile the caller made',
    expect: WRITE_OWN,
    call: async (c) =>
      trpcStatus(c.t, 'mutation', 'profile.update', c.token, {
        profileId: (await c.own()).profileId,
        profile: TRPC_PROFILE,
      }),
  },
  {
    surface: 'mutation profile.delete',
    variant: "a colleague's profile",
    expect: WRITE_COLLEAGUES,
    call: (c) => trpcStatus(c.t, 'mutation', 'profile.delete', c.token, { profileId: c.rows.profileId }),
  },
  {
    surface: 'mutation profile.delete',
    variant: 'a profile the caller made',
    expect: WRITE_OWN,
    call: async (c) => trpcStatus(c.t, 'mutation', 'profile.delete', c.token, { profileId: (await c.own()).profileId }),
  },
  {
    surface: 'query history.list',
    variant: '{team}',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'history.list', c.token, { team: c.w.teamId }),
  },
  {
    surface: 'query history.get',
    expect: READ,
    call: (c) => trpcStatus(c.t, 'query', 'history.get', c.token, { chatId: c.rows.chatId }),
  },
  {
    surface: 'mutation history.editTitle',
    variant: "a colleague's chat",
    expect: WRITE_COLLEAGUES,
    call: (c) => trpcStatus(c.t, 'mutation', 'history.editTitle', c.token, { chatId: c.rows.chatId, title: 'Renamed' }),
  },
  {
    surface: 'mutation history.editTitle',
    variant: 'a chat the caller made',
    expect: WRITE_OWN,
    call: async (c) =>
      trpcStatus(c.t, 'mutation', 'history.editTitle', c.token, { chatId: (await c.own()).chatId, title: 'Mine' }),
  },
  {
    surface: 'mutation history.delete',
    variant: "a colleague's chat",
    expect: WRITE_COLLEAGUES,
    call: (c) => trpcStatus(c.t, 'mutation', 'history.delete', c.token, { chatId: c.rows.chatId }),
  },
  {
    surface: 'mutation history.delete',
    variant: 'a chat the caller made',
    expect: WRITE_OWN,
    call: async (c) => trpcStatus(c.t, 'mutation', 'history.delete', c.token, { chatId: (await c.own()).chatId }),
  },
];
